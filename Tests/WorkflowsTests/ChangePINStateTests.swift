import EAC
import SDK
import SmartCard
import Testing

@testable import Workflows

/// The change PIN transition function, state × event → next state and effects, without a card
/// or a peer: the PACE sub-machine embedded (`PACEStateTests` covers it on its own), then the
/// new PIN.
@Suite struct ChangePINStateTests {
    typealias S = ChangePINState
    func next(_ state: S, _ event: ChangePINEvent) -> ChangePINStep { S.transition(from: state, on: event) }

    static let fresh = PACEProgress(retryCounter: 3)
    static let blocked = PACEProgress(retryCounter: 0)

    /// Every state that is not the end: some of the embedded PACE states, then change PIN's own.
    static let running: [ChangePINState] = [
        .pace(.selectReader), .pace(.preparePace(fresh)), .pace(.enterPacePassword(.pin, fresh)),
        .pace(.establishPaceChannel(.pin, fresh)), .pace(.resetRetryCounter(blocked)), .enterNewPacePin, .changePin,
    ]

    @Test func thePINPathInAusweisAppsStates() {
        var step = S.start
        #expect(step == ChangePINStep(.pace(.selectReader), [.pace(.waitForCard)]))
        step = next(step.state, .pace(.cardFound(retryCounter: 3)))
        #expect(step == ChangePINStep(.pace(.preparePace(Self.fresh)), [.pace(.sendReader), .pace(.checkCancelled)]))
        step = next(step.state, .pace(.proceed))
        #expect(step == ChangePINStep(.pace(.enterPacePassword(.pin, Self.fresh)), [.pace(.ask(.pin))]))
        step = next(step.state, .pace(.answered))
        #expect(step == ChangePINStep(.pace(.establishPaceChannel(.pin, Self.fresh)), [.pace(.establishPace(.pin))]))
        step = next(step.state, .pace(.paceEstablished))
        #expect(
            step
                == ChangePINStep(.enterNewPacePin, [.pace(.noteCard(CardInfo(retryCounter: 3))), .pace(.ask(.newPIN))]))
        step = next(step.state, .pace(.answered))
        #expect(step == ChangePINStep(.changePin, [.changePIN]))
        #expect(next(step.state, .pinChanged(.done)) == ChangePINStep(.finished(.changed)))
        #expect(
            next(step.state, .pinChanged(.refused(.wrongData)))
                == ChangePINStep(.finished(.cardError(.statusWord(.wrongData)))))
    }

    @Test func theEndsOfThePACESubMachineAreTheWorkflowsOutcomes() {
        #expect(
            next(.pace(.establishPaceChannel(.puk, Self.blocked)), .pace(.paceRefused(.authenticationMethodBlocked)))
                == ChangePINStep(
                    .finished(.pukInoperative),
                    [.pace(.noteCard(CardInfo(inoperative: true, retryCounter: 0))), .pace(.sendReader)]))
        #expect(
            next(.pace(.updateRetryCounter(after: .authenticationFailed, Self.fresh)), .pace(.retryCounterRead(nil)))
                == ChangePINStep(.finished(.cardError(.statusWord(.authenticationFailed)))))
        #expect(
            next(.pace(.resetRetryCounter(Self.blocked)), .pace(.unblocked(.done)))
                == ChangePINStep(
                    .pace(.preparePace(Self.fresh)),
                    [.pace(.noteCard(CardInfo(retryCounter: 3))), .pace(.checkCancelled)]))
    }

    @Test(arguments: ChangePINStateTests.running.filter(\.isPrompting))
    func cancelFromEveryPromptingState(state: ChangePINState) {
        #expect(next(state, .pace(.cancelled)) == ChangePINStep(.finished(.cancelled)))
        #expect(next(state, .pace(.timedOut)) == ChangePINStep(.finished(.timedOut)))
    }

    @Test func theStatesThatPrompt() {
        #expect(Self.running.filter(\.isPrompting).map(\.name) == ["StateEnterPacePassword", "StateEnterNewPacePin"])
    }

    @Test(arguments: ChangePINStateTests.running)
    func cancelAndCardFailuresEndEveryRunningState(state: ChangePINState) {
        #expect(next(state, .pace(.cancelled)) == ChangePINStep(.finished(.cancelled)))
        #expect(next(state, .pace(.failed(.cardRemoved))) == ChangePINStep(.finished(.cardError(.cardRemoved))))
        #expect(next(state, .failed(.cardRemoved)) == ChangePINStep(.finished(.cardError(.cardRemoved))))
    }

    /// Every step the workflow can take ends with exactly one effect that gives the next event,
    /// or is the end; an event a state does not expect changes nothing.
    @Test(arguments: ChangePINStateTests.running)
    func everyStepGivesExactlyOneEvent(state: ChangePINState) {
        let events: [ChangePINEvent] = [
            .pace(.cardFound(retryCounter: 3)), .pace(.cardFound(retryCounter: 0)), .pace(.proceed), .pace(.answered),
            .pace(.paceEstablished), .pace(.paceRefused(.retriesLeft(2))),
            .pace(.paceRefused(.authenticationMethodBlocked)), .pace(.retryCounterRead(2)), .pace(.unblocked(.done)),
            .pace(.unblocked(.pukInoperative)), .pinChanged(.done),
        ]
        for event in events {
            let step = next(state, event)
            if case .finished = step.state {
                #expect(!step.effects.contains { $0.givesEvent }, "\(state.name) on \(event)")
            } else if step.effects.isEmpty {
                #expect(step.state == state, "\(state.name) on \(event): unexpected events change nothing")
            } else {
                #expect(step.effects.filter(\.givesEvent).count == 1, "\(state.name) on \(event)")
                #expect(step.effects.last?.givesEvent == true, "\(state.name) on \(event)")
            }
        }
    }

    @Test func theEndStaysTheEnd() {
        #expect(next(.finished(.changed), .pace(.cancelled)) == ChangePINStep(.finished(.changed)))
        #expect(S.finished(.changed).name == "StateFinished")
    }
}
