import EAC
import Online
import SDK
import SmartCard
import Testing

@testable import Workflows

/// The authentication transition function, state × event → next state and effects, without a
/// card, a server or a peer.
@Suite struct AuthStateTests {
    typealias S = AuthState
    func next(_ state: S, _ event: AuthEvent) -> AuthStep { S.transition(from: state, on: event) }

    static let fresh = PACEProgress(retryCounter: 3)
    static let ok = AuthOutcome.ok

    /// Every state that is not the end.
    static let running: [AuthState] = [
        .startPaos, .initializeFramework, .processCvcsAndSetRights, .editAccessRights, .pace(.selectReader),
        .pace(.preparePace(fresh)), .pace(.enterPacePassword(.pin, fresh)), .pace(.establishPaceChannel(.pin, fresh)),
        .pace(.updateRetryCounter(after: .authenticationFailed, fresh)),
        .pace(.resetRetryCounter(PACEProgress(retryCounter: 0))), .didAuthenticateEac1, .eacAdditionalInputType,
        .didAuthenticateEac2, .transmit,
    ]

    static func refresh(_ outcome: AuthOutcome) -> AuthStep {
        AuthStep(.checkRefreshAddress(outcome), [.determineRefreshAddress(outcome)])
    }

    @Test func theWholePathInAusweisAppsStates() {
        var step = S.start
        #expect(step == AuthStep(.startPaos, [.sendStartPAOS]))
        step = next(step.state, .received(.initializeFramework))
        #expect(step == AuthStep(.initializeFramework, [.sendInitializeFrameworkResponse]))
        step = next(step.state, .received(.eac1))
        #expect(step == AuthStep(.processCvcsAndSetRights, [.checkTerminal]))
        step = next(step.state, .terminalAccepted)
        #expect(step == AuthStep(.editAccessRights, [.editAccessRights]))
        step = next(step.state, .accepted)
        #expect(step == AuthStep(.pace(.selectReader), [.pace(.waitForCard)]))
        step = next(step.state, .pace(.cardFound(retryCounter: 3)))
        #expect(step == AuthStep(.pace(.preparePace(Self.fresh)), [.pace(.sendReader), .pace(.checkCancelled)]))
        step = next(step.state, .pace(.proceed))
        #expect(step == AuthStep(.pace(.enterPacePassword(.pin, Self.fresh)), [.pace(.ask(.pin))]))
        step = next(step.state, .pace(.answered))
        #expect(step == AuthStep(.pace(.establishPaceChannel(.pin, Self.fresh)), [.pace(.establishPace(.pin))]))
        step = next(step.state, .pace(.paceEstablished))
        #expect(
            step == AuthStep(.didAuthenticateEac1, [.pace(.noteCard(CardInfo(retryCounter: 3))), .didAuthenticateEAC1]))
        step = next(step.state, .received(.eac2(signed: true)))
        #expect(step == AuthStep(.didAuthenticateEac2, [.didAuthenticateEAC2]))
        step = next(step.state, .received(.transmit))
        #expect(step == AuthStep(.transmit, [.transmit]))
        step = next(step.state, .received(.transmit))
        #expect(step == AuthStep(.transmit, [.transmit]))
        let end = AuthOutcome(result: .ok, reason: nil, fromServer: true)
        step = next(step.state, .received(.startPAOSResponse(.ok)))
        #expect(step == Self.refresh(end))
        step = next(step.state, .proceed)
        #expect(step == AuthStep(.finished(end)))
        #expect(next(step.state, .proceed) == step, "the end stays the end")
    }

    @Test func eac1MayComeRightAfterStartPAOS() {
        #expect(next(.startPaos, .received(.eac1)) == AuthStep(.processCvcsAndSetRights, [.checkTerminal]))
    }

    @Test func theSignatureInEACAdditionalInput() {
        #expect(
            next(.didAuthenticateEac1, .received(.eac2(signed: false)))
                == AuthStep(.eacAdditionalInputType, [.sendChallenge]))
        #expect(
            next(.eacAdditionalInputType, .received(.eacAdditional))
                == AuthStep(.didAuthenticateEac2, [.didAuthenticateEAC2]))
    }

    /// The PACE sub-machine (`PACEStateTests`) runs inside: its steps are the workflow's, its
    /// ends the workflow's failures.
    @Test func thePACESubMachineInside() {
        let suspended = PACEProgress(retryCounter: 1)
        #expect(
            next(.pace(.preparePace(suspended)), .pace(.proceed))
                == AuthStep(.pace(.enterPacePassword(.can, suspended)), [.pace(.ask(.can))]))
        #expect(
            next(.pace(.updateRetryCounter(after: .authenticationFailed, Self.fresh)), .pace(.retryCounterRead(nil)))
                == AuthStep(
                    .sendErrorResponse(.cardFailed(.statusWord(.authenticationFailed), during: .authentication)),
                    [.sendError(.cardFailed(.statusWord(.authenticationFailed), during: .authentication))]))
        // An event the sub-machine does not expect is a bug: reported as the card's failure.
        let stopped = FailureReason.cardFailed(
            .transportFailed("the authentication stopped in StatePreparePace"), during: .authentication)
        #expect(
            next(.pace(.preparePace(Self.fresh)), .pace(.answered))
                == AuthStep(.sendErrorResponse(stopped), [.sendError(stopped)]))
    }

    @Test func aUsedUpPUKIsReportedToTheServer() {
        let blocked = PACEProgress(retryCounter: 0)
        let step = next(.pace(.resetRetryCounter(blocked)), .pace(.unblocked(.pukInoperative)))
        #expect(step.state == .sendErrorResponse(.pukInoperative(during: .authentication)))
        #expect(
            step.effects == [
                .pace(.noteCard(CardInfo(inoperative: true, retryCounter: 0))), .pace(.sendEnterPUK),
                .sendError(.pukInoperative(during: .authentication)),
            ])
    }

    /// CANCEL, a timeout or a failure while the server waits: the response it waits for reports
    /// it, and the server's StartPAOSResponse ends the exchange.
    @Test(arguments: AuthStateTests.running)
    func cancelTimeoutAndFailureInEveryState(state: AuthState) {
        for (event, reason) in [
            (AuthEvent.cancelled, FailureReason.userCancelled(during: .authentication)),
            (.timedOut, .inputTimeout(seconds: nil, during: .authentication)),
            (.failed(.cardRemoved(during: .authentication)), .cardRemoved(during: .authentication)),
        ] {
            let step = next(state, event)
            if state.serverWaits {
                #expect(step == AuthStep(.sendErrorResponse(reason), [.sendError(reason)]), "\(state.name)")
            } else {
                #expect(step == Self.refresh(AuthOutcome(result: reason.result, reason: reason, fromServer: false)))
            }
        }
        // A broken connection is never reported: there is no one to report to.
        let lost = FailureReason.authConnectionFailed(.connectionFailed)
        #expect(
            next(state, .failed(lost))
                == Self.refresh(AuthOutcome(result: lost.result, reason: lost, fromServer: false)))
    }

    @Test(arguments: AuthStateTests.running)
    func aServerMessageOutOfOrderIsAFailure(state: AuthState) {
        for message in [ServerMessage.initializeFramework, .eac1, .eac2(signed: true), .eacAdditional, .transmit] {
            let step = next(state, .received(message))
            if step.state == .sendErrorResponse(.authUnexpectedServerMessage)
                || step.state.name == "StateCheckRefreshAddress"
            {
                continue
            }
            // The expected ones.
            let allowed: [(AuthState, ServerMessage)] = [
                (.startPaos, .initializeFramework), (.startPaos, .eac1), (.initializeFramework, .eac1),
                (.didAuthenticateEac1, .eac2(signed: true)), (.eacAdditionalInputType, .eacAdditional),
                (.didAuthenticateEac2, .transmit), (.transmit, .transmit),
            ]
            #expect(allowed.contains { $0.0 == state && $0.1 == message }, "\(state.name) took \(message)")
        }
    }

    @Test func theServersResultDecidesUnlessTheUserCancelled() {
        let serverError = DSSResult(.error(.invalidCertificatePath))
        // The report answered with an error: the server's result, the local reason.
        #expect(
            next(.sendErrorResponse(.authCheckFailed(.noDescription)), .received(.startPAOSResponse(serverError)))
                == Self.refresh(
                    AuthOutcome(
                        result: .error(.invalidCertificatePath), reason: .authCheckFailed(.noDescription),
                        fromServer: true)))
        // The user cancelled: the local result.
        #expect(
            next(
                .sendErrorResponse(.userCancelled(during: .authentication)), .received(.startPAOSResponse(serverError)))
                == Self.refresh(
                    AuthOutcome(
                        result: .error(.cancellationByUser), reason: .userCancelled(during: .authentication),
                        fromServer: false)))
        // The server ends with an error on its own.
        #expect(
            next(.transmit, .received(.startPAOSResponse(serverError)))
                == Self.refresh(
                    AuthOutcome(
                        result: .error(.invalidCertificatePath),
                        reason: .authServerResult(.error(.invalidCertificatePath)),
                        fromServer: true)))
        // The server does not end the exchange after the report: the local failure stands.
        #expect(
            next(.sendErrorResponse(.authEACRefused), .received(.transmit))
                == Self.refresh(AuthOutcome(result: .error(.noPermission), reason: .authEACRefused, fromServer: false)))
    }

    @Test func statesHaveAusweisAppsNames() {
        #expect(
            Self.running.map(\.name) == [
                "StateStartPaos", "StateInitializeFramework", "StatePreVerification", "StateEditAccessRights",
                "StateSelectReader", "StatePreparePace", "StateEnterPacePassword", "StateEstablishPaceChannel",
                "StateUpdateRetryCounter", "StateResetRetryCounter", "StateDidAuthenticateEac1",
                "StateEACAdditionalInputType", "StateDidAuthenticateEac2", "StateTransmit",
            ])
    }
}
