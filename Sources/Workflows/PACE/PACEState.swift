import EAC
import SDK
import SmartCard

/// Where the PACE part of a workflow is: AusweisApp's CompositeStatePace, which its change PIN
/// and authentication workflows both run. From a card search to PACE with the PIN (or transport
/// PIN), choosing the password from the PIN state: the CAN first when the PIN is suspended, the
/// PUK and RESET RETRY COUNTER when it is blocked.
///
/// A workflow embeds it as one of its states and moves it only through
/// `PACEState.transition(from:on:)`; it leaves the sub-machine when the state is `established`
/// or `ended`, which no workflow enters itself.
public enum PACEState: Equatable, Sendable {
    /// Waiting for an eID card whose PIN state allows PACE (StateSelectReader).
    case selectReader
    /// Choosing the password for PACE from the PIN state (StatePreparePace).
    case preparePace(PACEProgress)
    /// Waiting for the peer to give that password (StateEnterPacePassword).
    case enterPacePassword(PACEPasswordType, PACEProgress)
    /// PACE with that password (StateEstablishPaceChannel).
    case establishPaceChannel(PACEPasswordType, PACEProgress)
    /// The card refused the PIN without saying the attempts left: asking it (StateUpdateRetryCounter).
    case updateRetryCounter(after: StatusWord, PACEProgress)
    /// RESET RETRY COUNTER (unblock) in the channel the PUK established (StateResetRetryCounter).
    case resetRetryCounter(PACEProgress)
    /// The end: PACE with the PIN is established, the card counts 3 attempts again.
    case established
    /// The end: the sub-machine could not establish PACE with the PIN.
    case ended(PACEExit)

    /// The state's name, as AusweisApp names it.
    public var name: String {
        switch self {
        case .selectReader: return "StateSelectReader"
        case .preparePace: return "StatePreparePace"
        case .enterPacePassword: return "StateEnterPacePassword"
        case .establishPaceChannel: return "StateEstablishPaceChannel"
        case .updateRetryCounter: return "StateUpdateRetryCounter"
        case .resetRetryCounter: return "StateResetRetryCounter"
        case .established, .ended: return "StateFinished"
        }
    }

    /// Whether the sub-machine waits for the peer in this state.
    public var isPrompting: Bool {
        if case .enterPacePassword = self { return true }
        return false
    }
}

/// What the PACE sub-machine knows of the card's PIN state between PACE attempts.
public struct PACEProgress: Equatable, Sendable {
    /// PIN attempts left: 3, 2; 1 (suspended: the CAN first); 0 (blocked: the PUK).
    public var retryCounter: Int
    /// Whether PACE with the CAN succeeded in this card session (the last PIN attempt is open).
    public var canEstablished: Bool

    public init(retryCounter: Int, canEstablished: Bool = false) {
        self.retryCounter = retryCounter
        self.canEstablished = canEstablished
    }
}

/// Why the PACE sub-machine ended without PACE with the PIN.
public enum PACEExit: Equatable, Sendable {
    /// CANCEL, the end of the peer's input, or a stop signal.
    case cancelled
    /// No card, or no answer from the peer, within the timeout.
    case timedOut
    /// The PUK has unblocked the PIN ten times: the card refuses it now.
    case pukInoperative
    /// The card or reader failed, or refused with a status word the sub-machine cannot go on with.
    case cardError(CardError)
}

/// The next state of the PACE sub-machine and what to do to get there.
public typealias PACEStep = WorkflowStep<PACEState, PACEEffect>
