import EAC
import Online
import SDK
import SmartCard
import TestPKI
import Testing

@testable import Workflows

/// The authentication transition function, state × event → next state and effects, without a
/// card, a server or a peer. The data a state carries is the fake server's: its EAC1 input and
/// the terminal that passes the checks.
@Suite struct AuthStateTests {
    typealias S = AuthState
    func next(_ state: S, _ event: AuthEvent) -> AuthStep { S.transition(from: state, on: event) }

    static let fresh = PACEProgress(retryCounter: 3)
    static let ok = AuthOutcome.ok
    static let url = FakeEIDServer.tcTokenURL
    static let eac1Input = try! FakeEIDServer().eac1Input
    static let terminal = try! TerminalCheck(
        eac1Input, tcTokenURL: url, trustAnchors: [TestCertificateAuthority.project.certificate], date: .todayUTC(),
        tlsCertificates: [])
    static let accepted = AcceptedRequest(terminal: terminal, rights: terminal.accessRights)
    static let eac1Card = EAC1CardData(
        challenge: [1, 2, 3, 4, 5, 6, 7, 8], idPICC: [9], efCardAccess: [0x31, 0x00],
        certificationAuthorityReferences: ["DETESTeID00005"])
    static let eac2Signed = EAC2InputType(ephemeralPublicKey: [4, 1, 2], signature: [7, 7])
    static let eac2Unsigned = EAC2InputType(ephemeralPublicKey: [4, 1, 2], signature: nil)
    static let apdus = Transmit(inputAPDUs: [Transmit.InputAPDUInfo([0x0c, 0xb0, 0x00, 0x00, 0x00])])

    /// Every state that is not the end.
    static let running: [AuthState] = [
        .getTcToken(tcTokenURL: url), .startPaos, .initializeFramework, .processCvcsAndSetRights(eac1Input),
        .editAccessRights(terminal), .pace(.selectReader, accepted), .pace(.preparePace(fresh), accepted),
        .pace(.enterPacePassword(.pin, fresh), accepted), .pace(.establishPaceChannel(.pin, fresh), accepted),
        .pace(.updateRetryCounter(after: .authenticationFailed, fresh), accepted),
        .pace(.resetRetryCounter(PACEProgress(retryCounter: 0)), accepted), .didAuthenticateEac1(accepted),
        .sendDIDAuthenticateResponseEac1(accepted, eac1Card), .eacAdditionalInputType(terminal, eac2Unsigned),
        .didAuthenticateEac2(terminal), .transmit(terminal, stopped: nil),
        .transmit(terminal, stopped: .securityStatusNotSatisfied),
    ]

    static func refresh(_ outcome: AuthOutcome, _ basis: RefreshAddressBasis) -> AuthStep {
        AuthStep(.checkRefreshAddress(outcome, basis), [.determineRefreshAddress(outcome, basis)])
    }

    @Test func theWholePathInAusweisAppsStates() {
        let terminal = Self.terminal
        let accepted = Self.accepted
        var step = S.start(url: Self.url)
        #expect(step == AuthStep(.getTcToken(tcTokenURL: Self.url), [.fetchTcToken(tcTokenURL: Self.url)]))
        step = next(step.state, .tcTokenFetched)
        #expect(step == AuthStep(.startPaos, [.sendStartPAOS]))
        step = next(step.state, .received(.initializeFramework))
        #expect(step == AuthStep(.initializeFramework, [.sendInitializeFrameworkResponse]))
        step = next(step.state, .received(.eac1(Self.eac1Input)))
        #expect(step == AuthStep(.processCvcsAndSetRights(Self.eac1Input), [.checkTerminal(Self.eac1Input)]))
        step = next(step.state, .terminalAccepted(terminal))
        #expect(step == AuthStep(.editAccessRights(terminal), [.editAccessRights(terminal)]))
        step = next(step.state, .accepted(terminal.accessRights))
        #expect(step == AuthStep(.pace(.selectReader, accepted), [.pace(.waitForCard)]))
        step = next(step.state, .pace(.cardFound(retryCounter: 3)))
        #expect(
            step == AuthStep(.pace(.preparePace(Self.fresh), accepted), [.pace(.sendReader), .pace(.checkCancelled)]))
        step = next(step.state, .pace(.proceed))
        #expect(step == AuthStep(.pace(.enterPacePassword(.pin, Self.fresh), accepted), [.pace(.ask(.pin))]))
        step = next(step.state, .pace(.answered))
        #expect(
            step == AuthStep(.pace(.establishPaceChannel(.pin, Self.fresh), accepted), [.pace(.establishPace(.pin))]))
        step = next(step.state, .pace(.paceEstablished))
        #expect(
            step
                == AuthStep(
                    .didAuthenticateEac1(accepted), [.pace(.noteCard(CardInfo(retryCounter: 3))), .didAuthenticateEAC1]
                ))
        step = next(step.state, .cardEAC1(Self.eac1Card))
        let sending = AuthState.sendDIDAuthenticateResponseEac1(accepted, Self.eac1Card)
        #expect(step == AuthStep(sending, [.sendEAC1Output(accepted, Self.eac1Card)]))
        step = next(step.state, .received(.eac2(Self.eac2Signed)))
        let eac2 = AuthEffect.didAuthenticateEAC2(terminal, Self.eac2Signed, signature: [7, 7])
        #expect(step == AuthStep(.didAuthenticateEac2(terminal), [eac2]))
        let transmitting = AuthState.transmit(terminal, stopped: nil)
        let answered = AuthEffect.sendTransmitResponse(TransmitResponse(result: .ok, outputAPDUs: [[0x90, 0x00]]))
        for _ in 1...2 {
            step = next(step.state, .received(.transmit(Self.apdus)))
            #expect(step == AuthStep(transmitting, [.transmit(Self.apdus)]))
            step = next(step.state, .cardTransmitted([[0x90, 0x00]], stoppedAt: nil))
            #expect(step == AuthStep(transmitting, [answered]))
        }
        let end = AuthOutcome(result: .ok, reason: nil, fromServer: true)
        step = next(step.state, .received(.startPAOSResponse(.ok)))
        #expect(step == Self.refresh(end, .terminal(terminal)))
        let done = RefreshTarget(address: "https://service.example/done", result: .ok)
        step = next(step.state, .refreshAddressDetermined(url: done))
        #expect(step == AuthStep(.finished(end, url: done)))
        #expect(next(step.state, .refreshAddressDetermined(url: nil)) == step, "the end stays the end")
    }

    /// StateGetTcToken: a URL without a tcTokenURL ends at once, a failed fetch after it; the
    /// browser goes to the refused token's communication-error address, if there is one.
    @Test func noTcTokenEndsWithoutTheServer() {
        let invalid = S.start(url: "http://service.example/tctoken")
        let reason = FailureReason.authInvalidActivationURL(.notAnActivationURL)
        #expect(invalid == Self.refresh(AuthOutcome(failure: reason), .noTcToken(url: nil)))
        let unavailable = FailureReason.authTcTokenUnavailable(.connectionFailed)
        let error = RefreshTarget(address: "https://e.example/x", result: .error(.communicationError))
        let failed = next(.getTcToken(tcTokenURL: Self.url), .tcTokenFailed(unavailable, url: error))
        #expect(failed == Self.refresh(AuthOutcome(failure: unavailable), .noTcToken(url: error)))
        #expect(
            next(failed.state, .refreshAddressDetermined(url: error))
                == AuthStep(.finished(AuthOutcome(failure: unavailable), url: error)))
    }

    @Test func eac1MayComeRightAfterStartPAOS() {
        #expect(
            next(.startPaos, .received(.eac1(Self.eac1Input)))
                == AuthStep(.processCvcsAndSetRights(Self.eac1Input), [.checkTerminal(Self.eac1Input)]))
    }

    @Test func theSignatureInEACAdditionalInput() {
        let terminal = Self.terminal
        #expect(
            next(.sendDIDAuthenticateResponseEac1(Self.accepted, Self.eac1Card), .received(.eac2(Self.eac2Unsigned)))
                == AuthStep(
                    .eacAdditionalInputType(terminal, Self.eac2Unsigned), [.sendChallenge(Self.eac1Card.challenge)]))
        #expect(
            next(.eacAdditionalInputType(terminal, Self.eac2Unsigned), .received(.eacAdditional(signature: [8, 8])))
                == AuthStep(
                    .didAuthenticateEac2(terminal),
                    [.didAuthenticateEAC2(terminal, Self.eac2Unsigned, signature: [8, 8])]))
    }

    /// The PACE sub-machine (`PACEStateTests`) runs inside: its steps are the workflow's, its
    /// ends the workflow's failures.
    @Test func thePACESubMachineInside() {
        let suspended = PACEProgress(retryCounter: 1)
        let accepted = Self.accepted
        let basis = RefreshAddressBasis.terminal(Self.terminal)
        #expect(
            next(.pace(.preparePace(suspended), accepted), .pace(.proceed))
                == AuthStep(.pace(.enterPacePassword(.can, suspended), accepted), [.pace(.ask(.can))]))
        let refused = FailureReason.cardFailed(.statusWord(.authenticationFailed), during: .authentication)
        #expect(
            next(
                .pace(.updateRetryCounter(after: .authenticationFailed, Self.fresh), accepted),
                .pace(.retryCounterRead(nil)))
                == AuthStep(.sendErrorResponse(refused, basis), [.sendError(refused)]))
        // An event the sub-machine does not expect is a bug: reported as the card's failure.
        let stopped = FailureReason.cardFailed(
            .transportFailed("the authentication stopped in StatePreparePace"), during: .authentication)
        #expect(
            next(.pace(.preparePace(Self.fresh), accepted), .pace(.answered))
                == AuthStep(.sendErrorResponse(stopped, basis), [.sendError(stopped)]))
    }

    @Test func aUsedUpPUKIsReportedToTheServer() {
        let blocked = PACEProgress(retryCounter: 0)
        let step = next(.pace(.resetRetryCounter(blocked), Self.accepted), .pace(.unblocked(.pukInoperative)))
        #expect(step.state == .sendErrorResponse(.pukInoperative(during: .authentication), .terminal(Self.terminal)))
        #expect(
            step.effects == [
                .pace(.noteCard(CardInfo(inoperative: true, retryCounter: 0))), .pace(.sendReader),
                .sendError(.pukInoperative(during: .authentication)),
            ])
    }

    /// CANCEL, a timeout or a failure while the server waits: the response it waits for reports
    /// it, and the server's StartPAOSResponse ends the exchange. The refresh address is then
    /// checked against as much of the service as the workflow knows.
    @Test(arguments: AuthStateTests.running)
    func cancelTimeoutAndFailureInEveryState(state: AuthState) {
        for (event, reason) in [
            (AuthEvent.cancelled, FailureReason.userCancelled(during: .authentication)),
            (.timedOut, .inputTimeout(seconds: nil, during: .authentication)),
            (.failed(.cardRemoved(during: .authentication)), .cardRemoved(during: .authentication)),
        ] {
            let step = next(state, event)
            if state.serverWaits {
                #expect(
                    step == AuthStep(.sendErrorResponse(reason, state.refreshAddressBasis), [.sendError(reason)]),
                    "\(state.name)")
            } else {
                #expect(step == Self.refresh(AuthOutcome(failure: reason), state.refreshAddressBasis))
            }
        }
        // A broken connection is never reported: there is no one to report to.
        let lost = FailureReason.authConnectionFailed(.connectionFailed)
        #expect(next(state, .failed(lost)) == Self.refresh(AuthOutcome(failure: lost), state.refreshAddressBasis))
    }

    @Test func theRefreshAddressIsCheckedAgainstWhatTheWorkflowKnows() {
        #expect(S.getTcToken(tcTokenURL: Self.url).refreshAddressBasis == .noTcToken(url: nil))
        #expect(S.initializeFramework.refreshAddressBasis == .tcTokenURL)
        #expect(S.processCvcsAndSetRights(Self.eac1Input).refreshAddressBasis == .refusedEAC1(Self.eac1Input))
        for state in Self.running.dropFirst(4) {
            #expect(state.refreshAddressBasis == .terminal(Self.terminal), "\(state.name)")
        }
    }

    @Test(arguments: AuthStateTests.running)
    func aServerMessageOutOfOrderIsAFailure(state: AuthState) {
        let messages: [ServerMessage] = [
            .initializeFramework, .eac1(Self.eac1Input), .eac2(Self.eac2Signed), .eacAdditional(signature: [1]),
            .transmit(Self.apdus),
        ]
        for message in messages {
            let step = next(state, .received(message))
            if step.state == .sendErrorResponse(.authUnexpectedServerMessage, state.refreshAddressBasis)
                || step.state.name == "StateCheckRefreshAddress"
            {
                continue
            }
            // The expected ones.
            let allowed: [(String, ServerMessage)] = [
                ("StateStartPaos", .initializeFramework), ("StateStartPaos", .eac1(Self.eac1Input)),
                ("StateInitializeFramework", .eac1(Self.eac1Input)),
                ("StateSendDIDAuthenticateResponseEAC1", .eac2(Self.eac2Signed)),
                ("StateEACAdditionalInputType", .eacAdditional(signature: [1])),
                ("StateDidAuthenticateEac2", .transmit(Self.apdus)), ("StateTransmit", .transmit(Self.apdus)),
            ]
            #expect(allowed.contains { $0.0 == state.name && $0.1 == message }, "\(state.name) took \(message)")
        }
    }

    @Test func theServersResultDecidesUnlessTheUserCancelled() {
        let serverError = DSSResult(.error(.invalidCertificatePath))
        let basis = RefreshAddressBasis.terminal(Self.terminal)
        // The report answered with an error: the server's result, the local reason.
        #expect(
            next(
                .sendErrorResponse(.authCheckFailed(.noDescription), basis), .received(.startPAOSResponse(serverError)))
                == Self.refresh(
                    AuthOutcome(
                        result: .error(.invalidCertificatePath), reason: .authCheckFailed(.noDescription),
                        fromServer: true), basis))
        // The user cancelled: the local result.
        #expect(
            next(
                .sendErrorResponse(.userCancelled(during: .authentication), basis),
                .received(.startPAOSResponse(serverError)))
                == Self.refresh(AuthOutcome(failure: .userCancelled(during: .authentication)), basis))
        // The server ends with an error on its own.
        #expect(
            next(.transmit(Self.terminal, stopped: nil), .received(.startPAOSResponse(serverError)))
                == Self.refresh(
                    AuthOutcome(
                        result: .error(.invalidCertificatePath),
                        reason: .authServerResult(.error(.invalidCertificatePath)),
                        fromServer: true), basis))
        // The server does not end the exchange after the report: the local failure stands.
        #expect(
            next(.sendErrorResponse(.authEACRefused, basis), .received(.transmit(Self.apdus)))
                == Self.refresh(AuthOutcome(failure: .authEACRefused), basis))
    }

    /// EID_CLIENT_B_07: a batch stops at a status word the server does not accept; its response
    /// reports al/common#unknownError with the responses so far, the next Transmit goes to the
    /// card, and the first stop stays to the end, as AusweisApp's Card_Unexpected_Transmit_Status
    /// does: the server's ok ends as that failure (clientError for the browser); after the
    /// server's error the AUTH result stays the local one and the browser gets serverError.
    @Test func aStoppedTransmitBatchFailsTheAuthenticationAtTheEnd() {
        let terminal = Self.terminal
        let basis = RefreshAddressBasis.terminal(terminal)
        let refused: [UInt8] = [0x69, 0x82]
        let stopped = FailureReason.authTransmitStopped(.securityStatusNotSatisfied)
        var step = next(
            .transmit(terminal, stopped: nil),
            .cardTransmitted([[0x90, 0x00], refused], stoppedAt: .securityStatusNotSatisfied))
        let reported = TransmitResponse(
            result: DSSResult(.error(.unknownError)), outputAPDUs: [[0x90, 0x00], refused])
        let stoppedState = AuthState.transmit(terminal, stopped: .securityStatusNotSatisfied)
        #expect(step == AuthStep(stoppedState, [.sendTransmitResponse(reported)]))
        step = next(step.state, .received(.transmit(Self.apdus)))
        #expect(step == AuthStep(stoppedState, [.transmit(Self.apdus)]))
        // A later stop at another status word: reported too, the first one stays.
        step = next(step.state, .cardTransmitted([[0x6a, 0x82]], stoppedAt: .fileNotFound))
        #expect(step.state == stoppedState)
        step = next(step.state, .received(.transmit(Self.apdus)))
        step = next(step.state, .cardTransmitted([[0x90, 0x00]], stoppedAt: nil))
        #expect(
            step
                == AuthStep(
                    stoppedState, [.sendTransmitResponse(TransmitResponse(result: .ok, outputAPDUs: [[0x90, 0x00]]))]))
        let failed = AuthOutcome(failure: stopped)
        #expect(failed.result == .error(.unknownError) && !failed.fromServer)
        #expect(next(step.state, .received(.startPAOSResponse(.ok))) == Self.refresh(failed, basis))
        let serverError = DSSResult(.error(.invalidCertificatePath))
        #expect(
            next(step.state, .received(.startPAOSResponse(serverError)))
                == Self.refresh(AuthOutcome(result: .error(.unknownError), reason: stopped, fromServer: true), basis))
        // A failure after the stop is that failure, reported to the server.
        let removed = FailureReason.cardRemoved(during: .authentication)
        #expect(
            next(step.state, .failed(removed))
                == AuthStep(.sendErrorResponse(removed, basis), [.sendError(removed)]))
    }

    /// No refresh URL (docs/protocol.md, "Refresh address check"): a success becomes that failure, an earlier
    /// failure stands; either way the browser goes to the communication-error address.
    @Test func aFailedRefreshAddressCheck() {
        let refused = FailureReason.authRefreshAddressFailed(.notHTTPS)
        let basis = RefreshAddressBasis.tcTokenURL
        let error = RefreshTarget(address: "https://e.example/x", result: .error(.communicationError))
        #expect(
            next(.checkRefreshAddress(.ok, basis), .refreshAddressFailed(refused, url: error))
                == AuthStep(.finished(AuthOutcome(failure: refused), url: error)))
        let cancelled = AuthOutcome(failure: .userCancelled(during: .authentication))
        #expect(
            next(.checkRefreshAddress(cancelled, basis), .refreshAddressFailed(refused, url: nil))
                == AuthStep(.finished(cancelled, url: nil)))
    }

    @Test func statesHaveAusweisAppsNames() {
        #expect(
            Self.running.map(\.name) == [
                "StateGetTcToken", "StateStartPaos", "StateInitializeFramework", "StatePreVerification",
                "StateEditAccessRights", "StateSelectReader", "StatePreparePace", "StateEnterPacePassword",
                "StateEstablishPaceChannel", "StateUpdateRetryCounter", "StateResetRetryCounter",
                "StateDidAuthenticateEac1", "StateSendDIDAuthenticateResponseEAC1", "StateEACAdditionalInputType",
                "StateDidAuthenticateEac2", "StateTransmit", "StateTransmit",
            ])
    }
}

/// The test log names a state by AusweisApp's name, not by the certificates it carries.
extension AuthState: CustomTestStringConvertible {
    public var testDescription: String { name }
}
