import SmartCard

/// How many digits each of the eID card's passwords has: the one place these numbers live
/// (BSI TR-03110-2, 3.5; the PIN letter). The terminal checks a secret against them before it
/// reaches the card, so a typo never spends an attempt; the software card holds them to the
/// same rules.
public enum PasswordFormat: Sendable, CaseIterable, CustomStringConvertible {
    /// The eID PIN the holder chooses: 6 digits.
    case pin
    /// The transport PIN from the PIN letter: 5 digits, good only for choosing the PIN.
    case transportPIN
    /// The card access number printed on the card: 6 digits.
    case can
    /// The PUK from the PIN letter: 10 digits.
    case puk

    public var digitCount: Int {
        switch self {
        case .pin: return 6
        case .transportPIN: return 5
        case .can: return 6
        case .puk: return 10
        }
    }

    /// Whether `secret` is exactly `digitCount` ASCII digits.
    public func accepts(_ secret: Secret) -> Bool { secret.isDigits(count: digitCount) }

    /// Whether `text` is exactly `digitCount` ASCII digits.
    public func accepts(_ text: String) -> Bool {
        text.utf8.count == digitCount && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    public var description: String {
        switch self {
        case .pin: return "PIN"
        case .transportPIN: return "transport PIN"
        case .can: return "CAN"
        case .puk: return "PUK"
        }
    }
}
