import EAC
import SDK
import SmartCard
import Testing

@testable import Workflows

/// The PACE sub-machine on its own, as change PIN and the authentication both embed it: state ×
/// event → next state and effects, without a card or a peer.
@Suite struct PACEStateTests {
    typealias S = PACEState
    func next(_ state: S, _ event: PACEEvent) -> PACEStep? { S.transition(from: state, on: event) }

    static let fresh = PACEProgress(retryCounter: 3)
    static let suspended = PACEProgress(retryCounter: 1)
    static let blocked = PACEProgress(retryCounter: 0)

    /// Every state that is not an end, with one progress each.
    static let running: [PACEState] = [
        .selectReader, .preparePace(fresh), .enterPacePassword(.pin, fresh), .enterPacePassword(.can, suspended),
        .enterPacePassword(.puk, blocked), .establishPaceChannel(.pin, fresh), .establishPaceChannel(.can, suspended),
        .establishPaceChannel(.puk, blocked), .updateRetryCounter(after: .authenticationFailed, fresh),
        .resetRetryCounter(blocked),
    ]

    @Test func thePINPathInAusweisAppsStates() {
        var step: PACEStep? = S.start
        #expect(step == PACEStep(.selectReader, [.waitForCard]))
        step = next(.selectReader, .cardFound(retryCounter: 3))
        #expect(step == PACEStep(.preparePace(Self.fresh), [.sendReader, .checkCancelled]))
        step = next(.preparePace(Self.fresh), .proceed)
        #expect(step == PACEStep(.enterPacePassword(.pin, Self.fresh), [.ask(.pin)]))
        step = next(.enterPacePassword(.pin, Self.fresh), .answered)
        #expect(step == PACEStep(.establishPaceChannel(.pin, Self.fresh), [.establishPace(.pin)]))
        step = next(.establishPaceChannel(.pin, Self.fresh), .paceEstablished)
        #expect(step == PACEStep(.established, [.noteCard(CardInfo(retryCounter: 3))]))
    }

    @Test func aWrongPINShowsTheAttemptsLeftAndAsksAgain() {
        for (sw, left) in [
            (StatusWord.retriesLeft(2), 2), (.authenticationMethodBlocked, 0), (.securityStatusNotSatisfied, 1),
        ] {
            #expect(
                next(.establishPaceChannel(.pin, Self.fresh), .paceRefused(sw))
                    == PACEStep(
                        .preparePace(PACEProgress(retryCounter: left)),
                        [.noteCard(CardInfo(retryCounter: left)), .checkCancelled]),
                "\(sw)")
        }
    }

    @Test func aPlainRefusalAsksTheCardForItsCounter() {
        let state = S.updateRetryCounter(after: .authenticationFailed, Self.fresh)
        #expect(
            next(.establishPaceChannel(.pin, Self.fresh), .paceRefused(.authenticationFailed))
                == PACEStep(state, [.readRetryCounter]))
        #expect(
            next(state, .retryCounterRead(2))
                == PACEStep(
                    .preparePace(PACEProgress(retryCounter: 2)),
                    [.noteCard(CardInfo(retryCounter: 2)), .checkCancelled]))
        #expect(
            next(state, .retryCounterRead(nil)) == PACEStep(.ended(.cardError(.statusWord(.authenticationFailed)))))
    }

    @Test func theCANPath() {
        #expect(
            next(.preparePace(Self.suspended), .proceed)
                == PACEStep(.enterPacePassword(.can, Self.suspended), [.ask(.can)]))
        #expect(
            next(.enterPacePassword(.can, Self.suspended), .answered)
                == PACEStep(.establishPaceChannel(.can, Self.suspended), [.establishPace(.can)]))
        // A wrong CAN: asked again; nothing changes on the card.
        #expect(
            next(.establishPaceChannel(.can, Self.suspended), .paceRefused(.authenticationFailed))
                == PACEStep(.preparePace(Self.suspended), [.checkCancelled]))
        let withCAN = PACEProgress(retryCounter: 1, canEstablished: true)
        #expect(
            next(.establishPaceChannel(.can, Self.suspended), .paceEstablished)
                == PACEStep(.preparePace(withCAN), [.checkCancelled]))
        // Now the last PIN attempt.
        #expect(next(.preparePace(withCAN), .proceed) == PACEStep(.enterPacePassword(.pin, withCAN), [.ask(.pin)]))
        // A wrong PIN after the CAN ends the CAN's session: blocked now.
        #expect(
            next(.establishPaceChannel(.pin, withCAN), .paceRefused(.retriesLeft(0)))
                == PACEStep(.preparePace(Self.blocked), [.noteCard(CardInfo(retryCounter: 0)), .checkCancelled]))
        #expect(
            next(.establishPaceChannel(.pin, withCAN), .paceEstablished)
                == PACEStep(.established, [.noteCard(CardInfo(retryCounter: 3))]))
    }

    @Test func thePUKPath() {
        #expect(
            next(.preparePace(Self.blocked), .proceed) == PACEStep(.enterPacePassword(.puk, Self.blocked), [.ask(.puk)])
        )
        #expect(
            next(.enterPacePassword(.puk, Self.blocked), .answered)
                == PACEStep(.establishPaceChannel(.puk, Self.blocked), [.establishPace(.puk)]))
        #expect(
            next(.establishPaceChannel(.puk, Self.blocked), .paceRefused(.authenticationFailed))
                == PACEStep(.preparePace(Self.blocked), [.checkCancelled]), "a wrong PUK: asked again")
        #expect(
            next(.establishPaceChannel(.puk, Self.blocked), .paceEstablished)
                == PACEStep(.resetRetryCounter(Self.blocked), [.unblockPIN]))
        // Unblocked: ENTER_PIN follows with 3 attempts.
        #expect(
            next(.resetRetryCounter(Self.blocked), .unblocked(.done))
                == PACEStep(.preparePace(Self.fresh), [.noteCard(CardInfo(retryCounter: 3)), .checkCancelled]))
    }

    /// Any other answer to the unblock (vsmartcard's nPA emulator: 6988, having unblocked the PIN
    /// already at PACE with the PUK): the card connection is dropped and the card read again, as
    /// AusweisApp's StateResetRetryCounter does; PACE goes on from the PIN state it then shows.
    @Test func anUnexpectedUnblockAnswerReadsTheCardAgain() {
        for sw in [StatusWord.smDataObjectsIncorrect, .wrongData] {
            #expect(
                next(.resetRetryCounter(Self.blocked), .unblocked(.refused(sw)))
                    == PACEStep(.selectReader, [.dropCard, .waitForCard]))
        }
        // Read again with 3 attempts: READER, then ENTER_PIN.
        #expect(
            next(.selectReader, .cardFound(retryCounter: 3))
                == PACEStep(.preparePace(Self.fresh), [.sendReader, .checkCancelled]))
        #expect(
            next(.preparePace(Self.fresh), .proceed) == PACEStep(.enterPacePassword(.pin, Self.fresh), [.ask(.pin)]))
    }

    @Test func aUsedUpPUKEndsWithTheCardShownInoperative() {
        let shown = PACEStep(
            .ended(.pukInoperative), [.noteCard(CardInfo(inoperative: true, retryCounter: 0)), .sendReader])
        #expect(next(.establishPaceChannel(.puk, Self.blocked), .paceRefused(.authenticationMethodBlocked)) == shown)
        #expect(next(.resetRetryCounter(Self.blocked), .unblocked(.pukInoperative)) == shown)
    }

    /// A card removed, CANCEL and a timeout end the sub-machine in every state, with nothing
    /// more to do.
    @Test(arguments: PACEStateTests.running)
    func cardRemovalCancelAndTimeoutEndEveryState(state: PACEState) {
        #expect(next(state, .failed(.cardRemoved)) == PACEStep(.ended(.cardError(.cardRemoved))), "\(state.name)")
        #expect(next(state, .cancelled) == PACEStep(.ended(.cancelled)), "\(state.name)")
        #expect(next(state, .timedOut) == PACEStep(.ended(.timedOut)), "\(state.name)")
    }

    @Test func theStatesThatPrompt() {
        #expect(
            Self.running.filter(\.isPrompting).map(\.name) == [
                "StateEnterPacePassword", "StateEnterPacePassword", "StateEnterPacePassword",
            ])
    }

    /// Every step that does not end the sub-machine ends with exactly one effect that gives the
    /// next event; an event a state does not expect is nil, for the workflow to judge.
    @Test(arguments: PACEStateTests.running)
    func everyStepGivesExactlyOneEvent(state: PACEState) {
        let events: [PACEEvent] = [
            .cardFound(retryCounter: 3), .cardFound(retryCounter: 1), .cardFound(retryCounter: 0), .proceed,
            .answered, .paceEstablished, .paceRefused(.retriesLeft(2)), .paceRefused(.authenticationFailed),
            .paceRefused(.authenticationMethodBlocked), .retryCounterRead(2), .retryCounterRead(nil),
            .unblocked(.done), .unblocked(.pukInoperative), .unblocked(.refused(.smDataObjectsIncorrect)),
        ]
        for event in events {
            guard let step = next(state, event) else { continue }
            switch step.state {
            case .established, .ended:
                #expect(!step.effects.contains { $0.givesEvent }, "\(state.name) on \(event)")
            default:
                #expect(step.effects.filter(\.givesEvent).count == 1, "\(state.name) on \(event)")
                #expect(step.effects.last?.givesEvent == true, "\(state.name) on \(event)")
            }
        }
        #expect(next(state, .unblocked(.done)) == nil || state.name == "StateResetRetryCounter")
    }

    @Test func theEndsTakeNoEvent() {
        #expect(next(.established, .proceed) == nil)
        #expect(next(.ended(.cancelled), .cancelled) == nil)
    }
}
