import EAC
import SDK
import SmartCard

extension ChangePINState {
    /// The transition function: the state after `event` in `state`, and the effects to perform.
    /// Every step but the last ends with exactly one effect that gives the next event. An event
    /// a state does not expect leaves it with no effects (the workflow then ends; see
    /// `ChangePINWorkflow`).
    public static func transition(from state: ChangePINState, on event: ChangePINEvent) -> ChangePINStep {
        // Whatever the state: a failed card, CANCEL and timeouts end it.
        switch (state, event) {
        case (.finished, _):
            return ChangePINStep(state)
        case (_, .failed(let error)):
            return ChangePINStep(.finished(.cardError(error)))
        case (_, .cancelled):
            return ChangePINStep(.finished(.cancelled))
        case (_, .timedOut):
            return ChangePINStep(.finished(.timedOut))
        default:
            break
        }
        switch state {
        case .selectReader:
            return selectReader(on: event) ?? ChangePINStep(state)
        case .preparePace(let progress):
            return preparePace(progress, on: event) ?? ChangePINStep(state)
        case .enterPacePassword(let password, let progress):
            return enterPacePassword(password, progress, on: event) ?? ChangePINStep(state)
        case .establishPaceChannel(let password, let progress):
            return establishPaceChannel(password, progress, on: event) ?? ChangePINStep(state)
        case .updateRetryCounter(let sw, _):
            return updateRetryCounter(after: sw, on: event) ?? ChangePINStep(state)
        case .resetRetryCounter(let progress):
            return resetRetryCounter(progress, on: event) ?? ChangePINStep(state)
        case .enterNewPacePin:
            return enterNewPacePin(on: event) ?? ChangePINStep(state)
        case .changePin:
            return changePin(on: event) ?? ChangePINStep(state)
        case .finished:
            return ChangePINStep(state)
        }
    }

    /// The first step: waiting for a card.
    public static let start = ChangePINStep(.selectReader, [.waitForCard])
}
