import EAC
import SDK
import SmartCard
import Testing

@testable import Workflows

/// The change PIN transition function, state × event → next state and effects, without a card
/// or a peer.
@Suite struct ChangePINStateTests {
    typealias S = ChangePINState
    func next(_ state: S, _ event: ChangePINEvent) -> ChangePINStep { S.transition(from: state, on: event) }

    static let fresh = PACEProgress(retryCounter: 3)
    static let suspended = PACEProgress(retryCounter: 1)
    static let blocked = PACEProgress(retryCounter: 0)

    /// Every state that is not the end, with one progress each.
    static let running: [ChangePINState] = [
        .selectReader, .preparePace(fresh), .enterPacePassword(.pin, fresh), .enterPacePassword(.can, suspended),
        .enterPacePassword(.puk, blocked), .establishPaceChannel(.pin, fresh), .establishPaceChannel(.can, suspended),
        .establishPaceChannel(.puk, blocked), .updateRetryCounter(after: .authenticationFailed, fresh),
        .resetRetryCounter(blocked), .enterNewPacePin, .changePin,
    ]

    @Test func thePINPathInAusweisAppsStates() {
        var step = S.start
        #expect(step == ChangePINStep(.selectReader, [.waitForCard]))
        step = next(step.state, .cardFound(retryCounter: 3))
        #expect(step == ChangePINStep(.preparePace(Self.fresh), [.sendReader, .checkCancelled]))
        step = next(step.state, .proceed)
        #expect(step == ChangePINStep(.enterPacePassword(.pin, Self.fresh), [.ask(.pin)]))
        step = next(step.state, .answered)
        #expect(step == ChangePINStep(.establishPaceChannel(.pin, Self.fresh), [.establishPace(.pin)]))
        step = next(step.state, .paceEstablished)
        #expect(step == ChangePINStep(.enterNewPacePin, [.noteCard(CardInfo(retryCounter: 3)), .ask(.newPIN)]))
        step = next(step.state, .answered)
        #expect(step == ChangePINStep(.changePin, [.changePIN]))
        #expect(next(step.state, .pinChanged(.done)) == ChangePINStep(.finished(.changed)))
        #expect(
            next(step.state, .pinChanged(.refused(.wrongData)))
                == ChangePINStep(.finished(.cardError(.statusWord(.wrongData)))))
    }

    @Test func aWrongPINShowsTheAttemptsLeftAndAsksAgain() {
        let state = S.establishPaceChannel(.pin, Self.fresh)
        for (sw, left) in [
            (StatusWord.retriesLeft(2), 2), (.authenticationMethodBlocked, 0), (.securityStatusNotSatisfied, 1),
        ] {
            #expect(
                next(state, .paceRefused(sw))
                    == ChangePINStep(
                        .preparePace(PACEProgress(retryCounter: left)),
                        [.noteCard(CardInfo(retryCounter: left)), .checkCancelled]),
                "\(sw)")
        }
    }

    @Test func aPlainRefusalAsksTheCardForItsCounter() {
        let step = next(.establishPaceChannel(.pin, Self.fresh), .paceRefused(.authenticationFailed))
        #expect(
            step == ChangePINStep(.updateRetryCounter(after: .authenticationFailed, Self.fresh), [.readRetryCounter]))
        #expect(
            next(step.state, .retryCounterRead(2))
                == ChangePINStep(
                    .preparePace(PACEProgress(retryCounter: 2)),
                    [.noteCard(CardInfo(retryCounter: 2)), .checkCancelled]))
        #expect(
            next(step.state, .retryCounterRead(nil))
                == ChangePINStep(.finished(.cardError(.statusWord(.authenticationFailed)))))
    }

    @Test func theCANPath() {
        var step = next(.preparePace(Self.suspended), .proceed)
        #expect(step == ChangePINStep(.enterPacePassword(.can, Self.suspended), [.ask(.can)]))
        step = next(step.state, .answered)
        #expect(step == ChangePINStep(.establishPaceChannel(.can, Self.suspended), [.establishPace(.can)]))
        // A wrong CAN: asked again; nothing changes on the card.
        #expect(
            next(step.state, .paceRefused(.authenticationFailed))
                == ChangePINStep(.preparePace(Self.suspended), [.checkCancelled]))
        let withCAN = PACEProgress(retryCounter: 1, canEstablished: true)
        step = next(step.state, .paceEstablished)
        #expect(step == ChangePINStep(.preparePace(withCAN), [.checkCancelled]))
        // Now the last PIN attempt.
        step = next(step.state, .proceed)
        #expect(step == ChangePINStep(.enterPacePassword(.pin, withCAN), [.ask(.pin)]))
        // A wrong PIN after the CAN ends the CAN's session: blocked now.
        #expect(
            next(.establishPaceChannel(.pin, withCAN), .paceRefused(.retriesLeft(0)))
                == ChangePINStep(
                    .preparePace(PACEProgress(retryCounter: 0)),
                    [.noteCard(CardInfo(retryCounter: 0)), .checkCancelled]))
    }

    @Test func thePUKPath() {
        var step = next(.preparePace(Self.blocked), .proceed)
        #expect(step == ChangePINStep(.enterPacePassword(.puk, Self.blocked), [.ask(.puk)]))
        step = next(step.state, .answered)
        #expect(step == ChangePINStep(.establishPaceChannel(.puk, Self.blocked), [.establishPace(.puk)]))
        #expect(
            next(step.state, .paceRefused(.authenticationFailed))
                == ChangePINStep(.preparePace(Self.blocked), [.checkCancelled]), "a wrong PUK: asked again")
        step = next(step.state, .paceEstablished)
        #expect(step == ChangePINStep(.resetRetryCounter(Self.blocked), [.unblockPIN]))
        #expect(
            next(step.state, .unblocked(.done))
                == ChangePINStep(.preparePace(Self.fresh), [.noteCard(CardInfo(retryCounter: 3)), .checkCancelled]))
        #expect(
            next(step.state, .unblocked(.refused(.wrongData)))
                == ChangePINStep(.finished(.cardError(.statusWord(.wrongData)))))
    }

    @Test func aUsedUpPUKEndsWithTheCardShownInoperative() {
        let shown = ChangePINStep(
            .finished(.pukInoperative), [.noteCard(CardInfo(inoperative: true, retryCounter: 0)), .sendEnterPUK])
        #expect(next(.establishPaceChannel(.puk, Self.blocked), .paceRefused(.authenticationMethodBlocked)) == shown)
        #expect(next(.resetRetryCounter(Self.blocked), .unblocked(.pukInoperative)) == shown)
    }

    @Test(arguments: ChangePINStateTests.running.filter(\.isPrompting))
    func cancelFromEveryPromptingState(state: ChangePINState) {
        #expect(next(state, .cancelled) == ChangePINStep(.finished(.cancelled)))
        #expect(next(state, .timedOut) == ChangePINStep(.finished(.timedOut)))
    }

    @Test func theStatesThatPrompt() {
        #expect(
            Self.running.filter(\.isPrompting).map(\.name) == [
                "StateEnterPacePassword", "StateEnterPacePassword", "StateEnterPacePassword", "StateEnterNewPacePin",
            ])
    }

    @Test(arguments: ChangePINStateTests.running)
    func cancelAndCardFailuresEndEveryRunningState(state: ChangePINState) {
        #expect(next(state, .cancelled) == ChangePINStep(.finished(.cancelled)))
        #expect(next(state, .failed(.cardRemoved)) == ChangePINStep(.finished(.cardError(.cardRemoved))))
    }

    /// Every step the workflow can take ends with exactly one effect that gives the next event,
    /// or is the end; an event a state does not expect changes nothing.
    @Test(arguments: ChangePINStateTests.running)
    func everyStepGivesExactlyOneEvent(state: ChangePINState) {
        let events: [ChangePINEvent] = [
            .cardFound(retryCounter: 3), .cardFound(retryCounter: 1), .cardFound(retryCounter: 0), .proceed,
            .answered, .paceEstablished, .paceRefused(.retriesLeft(2)), .paceRefused(.authenticationFailed),
            .paceRefused(.authenticationMethodBlocked), .retryCounterRead(2), .retryCounterRead(nil),
            .unblocked(.done), .unblocked(.pukInoperative), .pinChanged(.done),
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
        #expect(next(.finished(.changed), .cancelled) == ChangePINStep(.finished(.changed)))
        #expect(S.finished(.changed).name == "StateFinished")
    }
}
