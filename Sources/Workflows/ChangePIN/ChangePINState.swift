import EAC
import SDK
import SmartCard

/// Where the change PIN workflow is. The names are AusweisApp's state names (its change PIN
/// workflow: StateSelectReader, then PACE with StatePreparePace, StateEnterPacePassword and
/// StateEstablishPaceChannel, then StateEnterNewPacePin and StateChangePin); `name` is what the
/// SDK's STATUS message will carry as `state`.
///
/// The workflow moves only through `ChangePINState.transition(from:on:)`, a pure function of the
/// state and an event that also says which effects to perform; `ChangePINWorkflow` performs
/// them and turns their results into the next event.
public enum ChangePINState: Equatable, Sendable {
    /// Waiting for an eID card whose PIN state allows a change (StateSelectReader).
    case selectReader
    /// Choosing the password for PACE from the PIN state: the PUK when blocked, the CAN first
    /// when suspended, else the PIN (StatePreparePace).
    case preparePace(PACEProgress)
    /// Waiting for the peer to give that password (StateEnterPacePassword).
    case enterPacePassword(PACEPasswordType, PACEProgress)
    /// PACE with that password (StateEstablishPaceChannel).
    case establishPaceChannel(PACEPasswordType, PACEProgress)
    /// The card refused the PIN without saying the attempts left: asking it (StateUpdateRetryCounter).
    case updateRetryCounter(after: StatusWord, PACEProgress)
    /// RESET RETRY COUNTER (unblock) in the channel the PUK established (StateResetRetryCounter).
    case resetRetryCounter(PACEProgress)
    /// Waiting for the new PIN (StateEnterNewPacePin).
    case enterNewPacePin
    /// RESET RETRY COUNTER (change) with the new PIN (StateChangePin).
    case changePin
    /// The end, with its outcome.
    case finished(ChangePINWorkflow.Outcome)

    /// The state's name, as AusweisApp names it.
    public var name: String {
        switch self {
        case .selectReader: return "StateSelectReader"
        case .preparePace: return "StatePreparePace"
        case .enterPacePassword: return "StateEnterPacePassword"
        case .establishPaceChannel: return "StateEstablishPaceChannel"
        case .updateRetryCounter: return "StateUpdateRetryCounter"
        case .resetRetryCounter: return "StateResetRetryCounter"
        case .enterNewPacePin: return "StateEnterNewPacePin"
        case .changePin: return "StateChangePin"
        case .finished: return "StateFinished"
        }
    }

    /// Whether the workflow waits for the peer in this state (a prompt, in the terminal face).
    public var isPrompting: Bool {
        switch self {
        case .enterPacePassword, .enterNewPacePin: return true
        default: return false
        }
    }
}

/// What the workflow knows of the card's PIN state between PACE attempts.
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

/// What happened: the result of the last effect, or the peer's answer.
public enum ChangePINEvent: Equatable, Sendable {
    /// An eID card with this many PIN attempts left is held.
    case cardFound(retryCounter: Int)
    /// Not cancelled: go on.
    case proceed
    /// The peer gave a valid secret of the kind asked for (the workflow holds it, not the event).
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
    /// RESET RETRY COUNTER (change) ended so.
    case pinChanged(ResetRetryCounterOutcome)
    /// The card or reader failed.
    case failed(CardError)
}

/// What the workflow does on a transition. The ones marked "→" give the next event.
public enum ChangePINEffect: WorkflowEffect {
    /// → `cardFound`, `cancelled`, `timedOut`, `failed`: waits for a usable eID card (INSERT_CARD,
    /// READER for cards that are not).
    case waitForCard
    /// Sends READER with the card as last noted.
    case sendReader
    /// The card state the following messages carry.
    case noteCard(CardInfo)
    /// Sends ENTER_PUK with the card as noted (inoperative): the SDK's way to say it is over.
    case sendEnterPUK
    /// → `proceed` or `cancelled`.
    case checkCancelled
    /// → `answered`, `cancelled`, `timedOut`: sends ENTER_* and takes the first valid answer.
    case ask(SecretKind)
    /// → `paceEstablished`, `paceRefused`, `failed`: PACE with the answer, which is then wiped.
    case establishPace(PACEPasswordType)
    /// → `retryCounterRead`, `failed`.
    case readRetryCounter
    /// → `unblocked`, `failed`.
    case unblockPIN
    /// → `pinChanged`, `failed`: the answer (the new PIN) is then wiped.
    case changePIN

    /// Whether performing it gives the next event.
    public var givesEvent: Bool {
        switch self {
        case .sendReader, .noteCard, .sendEnterPUK: return false
        default: return true
        }
    }
}

/// The next state and what to do to get there.
public typealias ChangePINStep = WorkflowStep<ChangePINState, ChangePINEffect>
