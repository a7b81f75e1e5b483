import CardAccess
import SDK

/// What a PIN, CAN, PUK or new PIN must look like before it may reach the card, so that a typo
/// never spends one of the card's attempts. Error texts are the SDK's.
public enum PasswordRules {
    /// The lengths allowed for `kind`. In the change PIN workflow the current PIN may be the
    /// 5-digit transport PIN.
    public static func lengths(for kind: SecretKind, transportPINAllowed: Bool = true) -> [Int] {
        switch kind {
        case .pin: return transportPINAllowed ? [5, 6] : [6]
        case .can: return [6]
        case .puk: return [10]
        case .newPIN: return [6]
        }
    }

    /// nil when `value` is acceptable, else the error text for the ENTER_* message.
    public static func check(_ value: Secret?, as kind: SecretKind, transportPINAllowed: Bool = true) -> String? {
        let allowed = lengths(for: kind, transportPINAllowed: transportPINAllowed)
        let ok = value.map { v in allowed.contains { v.isDigits(count: $0) } } ?? false
        if ok { return nil }
        return allowed.count == 2 ? "You must provide 5 or 6 digits" : "You must provide \(allowed[0]) digits"
    }
}
