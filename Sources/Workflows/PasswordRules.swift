import EAC
import SDK
import SmartCard

/// What a PIN, CAN, PUK or new PIN must look like before it may reach the card, so that a typo
/// never spends one of the card's attempts. Error texts are the SDK's.
public enum PasswordRules {
    /// The formats allowed for `kind`. In the change PIN workflow the current PIN may be the
    /// 5-digit transport PIN.
    public static func formats(for kind: SecretKind, transportPINAllowed: Bool = true) -> [PasswordFormat] {
        switch kind {
        case .pin: return transportPINAllowed ? [.transportPIN, .pin] : [.pin]
        case .can: return [.can]
        case .puk: return [.puk]
        case .newPIN: return [.pin]
        }
    }

    /// nil when `value` is acceptable, else the error text for the ENTER_* message.
    public static func check(_ value: Secret?, as kind: SecretKind, transportPINAllowed: Bool = true) -> String? {
        let allowed = formats(for: kind, transportPINAllowed: transportPINAllowed)
        if let value, allowed.contains(where: { $0.accepts(value) }) { return nil }
        let counts = allowed.map { String($0.digitCount) }
        return "You must provide \(counts.joined(separator: " or ")) digits"
    }
}
