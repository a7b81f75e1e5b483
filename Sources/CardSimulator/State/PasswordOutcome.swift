import SmartCard

/// What a use of a password came to, with the status word the card answers for it.
public enum PasswordOutcome: Equatable, Sendable, CustomStringConvertible {
    /// 9000.
    case success
    /// 63Cx with the PIN's attempts left, or 6300 for passwords without a counter (CAN, PUK).
    case wrongPassword(retriesLeft: Int?)
    /// 63C1: the PIN has one attempt left and needs PACE with the CAN first in this session.
    case suspended
    /// 6983: the PIN's retry counter is 0; only the PUK unblocks it.
    case blocked
    /// 6982: the PUK has been used 10 times and cannot unblock the PIN any more. PACE with it
    /// still works; RESET RETRY COUNTER is what the card refuses, with "security status not
    /// satisfied" (what AusweisApp2 reads as an inoperative PUK; its SDK says a client can learn
    /// this only after entering the right PUK).
    case inoperative
    /// 6A88: the card has no such password (MRZ).
    case notAvailable
    /// 6A80: the new PIN of a PIN change is not 6 digits.
    case invalidNewPIN

    public var statusWord: StatusWord {
        switch self {
        case .success: return .success
        case .wrongPassword(let n?): return .retriesLeft(n)
        case .wrongPassword(nil): return .authenticationFailed
        case .suspended: return .retriesLeft(1)
        case .blocked: return .authenticationMethodBlocked
        case .inoperative: return .securityStatusNotSatisfied
        case .notAvailable: return .referenceDataNotFound
        case .invalidNewPIN: return .wrongData
        }
    }

    public var description: String {
        switch self {
        case .success: return "success"
        case .wrongPassword(let n?): return "wrong password, \(n) attempt(s) left"
        case .wrongPassword(nil): return "wrong password"
        case .suspended: return "PIN suspended: PACE with the CAN first"
        case .blocked: return "PIN blocked: unblock it with the PUK"
        case .inoperative: return "PUK inoperative: it has been used the maximum number of times"
        case .notAvailable: return "the card has no such password"
        case .invalidNewPIN: return "the new PIN must be 6 digits"
        }
    }
}
