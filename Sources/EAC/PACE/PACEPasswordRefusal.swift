import SmartCard

/// The status words with which a card refuses the password of PACE in General Authenticate
/// (the table at `CommandAPDU.generalAuthenticate(pace:isLast:)`), and what they tell about
/// the PIN's counter. Any other status word is not a refusal of the password but a failure.
public enum PACEPasswordRefusal: Equatable, Sendable {
    /// 63Cx: a wrong PIN, x attempts left; 6300 (nil): a wrong CAN or PUK, which count nothing.
    case wrongPassword(retryCounter: Int?)
    /// 6983: the PIN is blocked; only the PUK helps.
    case blocked
    /// 6982 or 6985: the PIN is suspended; PACE with the CAN first.
    case suspended

    /// The refusal `sw` stands for, or nil when it is none.
    public init?(statusWord sw: StatusWord) {
        if let n = sw.retryCounter {
            self = .wrongPassword(retryCounter: n)
            return
        }
        switch sw {
        case .authenticationFailed: self = .wrongPassword(retryCounter: nil)
        case .authenticationMethodBlocked: self = .blocked
        case .securityStatusNotSatisfied, .conditionsOfUseNotSatisfied: self = .suspended
        default: return nil
        }
    }

    /// The PIN's attempts left that the refusal tells (blocked 0, suspended 1, 63Cx x), or nil
    /// when it tells none (6300: ask the card with MSE:Set AT).
    public var pinRetryCounter: Int? {
        switch self {
        case .wrongPassword(let n): return n
        case .blocked: return 0
        case .suspended: return 1
        }
    }
}
