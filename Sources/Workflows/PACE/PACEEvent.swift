import EAC
import SmartCard

/// What happened in the PACE sub-machine: the result of its last effect, or the peer's answer.
public enum PACEEvent: Equatable, Sendable {
    /// An eID card with this many PIN attempts left is held.
    case cardFound(retryCounter: Int)
    /// Not cancelled: go on.
    case proceed
    /// The peer gave a valid secret of the kind asked for (the performer holds it, not the event).
    case answered
    /// CANCEL, the end of the peer's input, or a stop signal.
    case cancelled
    /// No card, or no answer from the peer, within the timeout.
    case timedOut
    case paceEstablished
    /// The card refused the password with this status word.
    case paceRefused(StatusWord)
    /// MSE:Set AT told the PIN attempts left (nil: it did not).
    case retryCounterRead(Int?)
    /// RESET RETRY COUNTER (unblock) ended so.
    case unblocked(ResetRetryCounterOutcome)
    /// The card or reader failed.
    case failed(CardError)

    /// The end this event means in any state: cancelled, timed out, or failed.
    public var exit: PACEExit? {
        switch self {
        case .cancelled: return .cancelled
        case .timedOut: return .timedOut
        case .failed(let error): return .cardError(error)
        default: return nil
        }
    }
}
