import EAC
import SDK
import SmartCard

/// Where the change PIN workflow is. The names are AusweisApp's state names (its change PIN
/// workflow: the PACE states, then StateEnterNewPacePin and StateChangePin); `name` is what the
/// SDK's STATUS message will carry as `state`.
///
/// The workflow moves only through `ChangePINState.transition(from:on:)`, a pure function of the
/// state and an event that also says which effects to perform; `ChangePINWorkflow` performs
/// them and turns their results into the next event.
public enum ChangePINState: Equatable, Sendable {
    /// The card search and PACE with the PIN (or transport PIN), as in the authentication.
    case pace(PACEState)
    /// Waiting for the new PIN (StateEnterNewPacePin).
    case enterNewPacePin
    /// RESET RETRY COUNTER (change) with the new PIN (StateChangePin).
    case changePin
    /// The end, with its outcome.
    case finished(ChangePINWorkflow.Outcome)

    /// The state's name, as AusweisApp names it.
    public var name: String {
        switch self {
        case .pace(let state): return state.name
        case .enterNewPacePin: return "StateEnterNewPacePin"
        case .changePin: return "StateChangePin"
        case .finished: return "StateFinished"
        }
    }

    /// Whether the workflow waits for the peer in this state (a prompt, in the terminal face).
    public var isPrompting: Bool {
        switch self {
        case .pace(let state): return state.isPrompting
        case .enterNewPacePin: return true
        default: return false
        }
    }
}

/// What happened: the result of the last effect, or the peer's answer.
public enum ChangePINEvent: Equatable, Sendable {
    /// An event of the PACE sub-machine (the new PIN's answer, its cancellation and timeout too).
    case pace(PACEEvent)
    /// RESET RETRY COUNTER (change) ended so.
    case pinChanged(ResetRetryCounterOutcome)
    /// The card or reader failed.
    case failed(CardError)
}

/// What the workflow does on a transition. The ones marked "→" give the next event.
public enum ChangePINEffect: WorkflowEffect {
    /// An effect of the PACE sub-machine (asking for the new PIN too).
    case pace(PACEEffect)
    /// → `pinChanged`, `failed`: the answer (the new PIN) is then wiped.
    case changePIN

    /// Whether performing it gives the next event.
    public var givesEvent: Bool {
        switch self {
        case .pace(let effect): return effect.givesEvent
        case .changePIN: return true
        }
    }
}

/// The next state and what to do to get there.
public typealias ChangePINStep = WorkflowStep<ChangePINState, ChangePINEffect>
