import EAC
import SDK
import SmartCard

extension ChangePINState {
    /// The transition function: the state after `event` in `state`, and the effects to perform.
    /// Every step but the last ends with exactly one effect that gives the next event. An event
    /// a state does not expect leaves it with no effects (the workflow then ends; see
    /// `ChangePINWorkflow`).
    public static func transition(from state: ChangePINState, on event: ChangePINEvent) -> ChangePINStep {
        switch (state, event) {
        case (.finished, _):
            return ChangePINStep(state)
        case (_, .failed(let error)):
            return ChangePINStep(.finished(.cardError(error)))
        case (.pace(let pace), .pace(let event)):
            return PACEState.transition(from: pace, on: event).map(leavingPACE) ?? ChangePINStep(state)
        case (_, .pace(let event)):
            // Whatever the state: a failed card, CANCEL and timeouts end it.
            if let exit = event.exit { return ChangePINStep(.finished(outcome(exit))) }
            guard state == .enterNewPacePin, event == .answered else { return ChangePINStep(state) }
            return ChangePINStep(.changePin, [.changePIN])
        case (.changePin, .pinChanged(.refused(let sw))):
            return ChangePINStep(.finished(.cardError(.statusWord(sw))))
        case (.changePin, .pinChanged):
            return ChangePINStep(.finished(.changed))
        default:
            return ChangePINStep(state)
        }
    }

    /// The first step: waiting for a card.
    public static let start = leavingPACE(PACEState.start)

    /// A step of the PACE sub-machine as the workflow's: PACE with the PIN leads to the new
    /// PIN; the sub-machine's end is the workflow's.
    static func leavingPACE(_ step: PACEStep) -> ChangePINStep {
        let effects = step.effects.map(ChangePINEffect.pace)
        switch step.state {
        case .established: return ChangePINStep(.enterNewPacePin, effects + [.pace(.ask(.newPIN))])
        case .ended(let exit): return ChangePINStep(.finished(outcome(exit)), effects)
        default: return ChangePINStep(.pace(step.state), effects)
        }
    }

    static func outcome(_ exit: PACEExit) -> ChangePINWorkflow.Outcome {
        switch exit {
        case .cancelled: return .cancelled
        case .timedOut: return .timedOut
        case .pukInoperative: return .pukInoperative
        case .cardError(let error): return .cardError(error)
        }
    }
}
