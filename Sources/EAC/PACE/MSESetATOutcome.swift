import SmartCard

/// What the card's answer to MSE:Set AT for PACE means (BSI TR-03110-3, B.11.1 and D.3;
/// TR-03105-5.1). With the PIN as password the answer tells the PIN's state before any PACE,
/// which is how a reader listing shows it without a PIN:
///
/// | SW | outcome | meaning |
/// | --- | --- | --- |
/// | 9000 | `ready` | PACE may follow; for the PIN: 3 attempts left |
/// | 63C2 (63Cx, x ≥ 2) | `retryCounter(x)` | PACE may follow; the PIN has x attempts left |
/// | 63C1 | `suspended` | the PIN has one attempt left and is suspended: PACE with the CAN first, in the same card session |
/// | 63C0 | `blocked` | the PIN is blocked: PACE with the PUK and RESET RETRY COUNTER (unblock) first |
/// | 6283 | `deactivated` | the eID function is switched off; the counter is not told |
/// | 6A80 | `refused` | the protocol, domain parameters or CHAT are not supported, or the data is malformed |
/// | 6A88 | `refused` | the card has no such password (the MRZ on an ID card) |
/// | 6700, 6A86, others | `refused` | the command itself is wrong |
///
/// PACE continues after every outcome but `refused` (General Authenticate then refuses a
/// suspended or blocked PIN itself). The software card answers with `statusWord` of the
/// outcome its password state gives, so both sides read one table.
public enum MSESetATOutcome: Equatable, Sendable, CustomStringConvertible {
    case ready
    /// 63Cx with x ≥ 2: the PIN's attempts left.
    case retryCounter(Int)
    case suspended
    case blocked
    case deactivated
    /// Any status word not in the rows above: PACE cannot run with this template.
    case refused(StatusWord)

    /// The attempts of a full PIN counter.
    public static let maxPINRetryCounter = 3

    /// The outcome a status word stands for.
    public init(statusWord sw: StatusWord) {
        if sw.isSuccess {
            self = .ready
        } else if sw == .deactivated {
            self = .deactivated
        } else if let n = sw.retryCounter {
            switch n {
            case 0: self = .blocked
            case 1: self = .suspended
            default: self = .retryCounter(n)
            }
        } else {
            self = .refused(sw)
        }
    }

    /// The outcome of a PIN with `retryCounter` attempts left (0...3): what the card answers.
    public init(pinRetryCounter n: Int) {
        self = n >= MSESetATOutcome.maxPINRetryCounter ? .ready : MSESetATOutcome(statusWord: .retriesLeft(n))
    }

    /// The status word that carries this outcome.
    public var statusWord: StatusWord {
        switch self {
        case .ready: return .success
        case .retryCounter(let n): return .retriesLeft(n)
        case .suspended: return .retriesLeft(1)
        case .blocked: return .retriesLeft(0)
        case .deactivated: return .deactivated
        case .refused(let sw): return sw
        }
    }

    /// Whether General Authenticate may follow (every outcome but `refused`).
    public var allowsPACE: Bool {
        if case .refused = self { return false }
        return true
    }

    /// The PIN's attempts left (0...3) that the outcome tells, or nil when it tells none
    /// (deactivated, refused, or a count no eID PIN has).
    public var pinRetryCounter: Int? {
        switch self {
        case .ready: return MSESetATOutcome.maxPINRetryCounter
        case .retryCounter(let n): return n <= MSESetATOutcome.maxPINRetryCounter ? n : nil
        case .suspended: return 1
        case .blocked: return 0
        case .deactivated, .refused: return nil
        }
    }

    public var description: String {
        switch self {
        case .ready: return "ready"
        case .retryCounter(let n): return "\(n) attempts left"
        case .suspended: return "suspended"
        case .blocked: return "blocked"
        case .deactivated: return "deactivated"
        case .refused(let sw): return "refused: \(sw)"
        }
    }
}
