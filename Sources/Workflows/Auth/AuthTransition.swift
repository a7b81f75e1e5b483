import EAC
import Online
import SDK
import SmartCard

extension AuthState {
    /// The transition function: the state after `event` in `state`, and the effects to perform.
    /// Every step but the last ends with exactly one effect that gives the next event. An event a
    /// state does not expect is a failure: a server message out of order is reported to the
    /// server as al/common#internalError; any other is a bug and ends the workflow.
    public static func transition(from state: AuthState, on event: AuthEvent) -> AuthStep {
        switch (state, event) {
        case (.finished, _):
            return AuthStep(state)
        case (.checkRefreshAddress(let outcome, _), .refreshAddressDetermined(let url)):
            return AuthStep(.finished(outcome, url: url))
        case (.checkRefreshAddress(let outcome, _), .refreshAddressFailed(let reason, let url)):
            // No refresh URL (docs/protocol.md, "Refresh address check"): a success becomes that failure; an
            // earlier failure stands.
            guard outcome.result.major == .ok else { return AuthStep(.finished(outcome, url: url)) }
            return AuthStep(.finished(AuthOutcome(failure: reason), url: url))
        case (.checkRefreshAddress, _):
            return AuthStep(state)
        case (.getTcToken, .tcTokenFetched):
            return AuthStep(.startPaos, [.sendStartPAOS])
        case (.getTcToken, .tcTokenFailed(let reason, let url)):
            return refresh(AuthOutcome(failure: reason), .noTcToken(url: url))
        case (.sendErrorResponse(let local, let basis), .received(.startPAOSResponse(let result))):
            return refresh(.combining(local: local, server: result), basis)
        case (.sendErrorResponse(let local, let basis), _):
            // The server did not end the exchange after the report: the local failure stands.
            return refresh(AuthOutcome(failure: local), basis)
        case (.transmit(_, let stopped?), .received(.startPAOSResponse(let result))):
            return refresh(.transmitStopped(.authTransmitStopped(stopped), server: result), state.refreshAddressBasis)
        case (_, .received(.startPAOSResponse(let result))):
            return refresh(.combining(local: nil, server: result), state.refreshAddressBasis)
        case (_, .failed(let reason)):
            return failing(state, reason)
        case (_, .cancelled):
            return failing(state, .userCancelled(during: .authentication))
        case (_, .timedOut):
            return failing(state, .inputTimeout(seconds: nil, during: .authentication))
        default:
            break
        }
        if let next = next(state, on: event) { return next }
        if case .received = event { return failing(state, .authUnexpectedServerMessage) }
        return failing(
            state, .cardFailed(.transportFailed("the authentication stopped in \(state.name)"), during: .authentication)
        )
    }

    /// The first step for `url`, a tcTokenURL or an activation URL holding one: the TcToken
    /// fetch; for a URL that holds none, the end (the browser goes nowhere).
    public static func start(url: String) -> AuthStep {
        do {
            let tcTokenURL = try ActivationURL.tcTokenURL(from: url)
            return AuthStep(.getTcToken(tcTokenURL: tcTokenURL), [.fetchTcToken(tcTokenURL: tcTokenURL)])
        } catch {
            return refresh(AuthOutcome(failure: .authInvalidActivationURL(error)), .noTcToken(url: nil))
        }
    }

    /// The expected steps: the PAOS start, the EAC1 checks and the user's ACCEPT, PACE, EAC.
    static func next(_ state: AuthState, on event: AuthEvent) -> AuthStep? {
        switch (state, event) {
        case (.startPaos, .received(.initializeFramework)):
            return AuthStep(.initializeFramework, [.sendInitializeFrameworkResponse])
        case (.startPaos, .received(.eac1(let input))), (.initializeFramework, .received(.eac1(let input))):
            // StartPAOS is answered by InitializeFramework or directly by EAC1 (docs/protocol.md, "PAOS
            // message order").
            return AuthStep(.processCvcsAndSetRights(input), [.checkTerminal(input)])
        case (.processCvcsAndSetRights, .terminalAccepted(let terminal)):
            return AuthStep(.editAccessRights(terminal), [.editAccessRights(terminal)])
        case (.editAccessRights(let terminal), .accepted(let rights)):
            return leavingPACE(PACEState.start, AcceptedRequest(terminal: terminal, rights: rights), from: state)
        case (.pace(let pace, let accepted), .pace(let event)):
            return PACEState.transition(from: pace, on: event).map { leavingPACE($0, accepted, from: state) }
        default:
            return eac(state, on: event)
        }
    }

    /// A step of the PACE sub-machine as the workflow's: PACE with the PIN leads to EAC1; the
    /// sub-machine's end is a failure, reported to the server.
    static func leavingPACE(_ step: PACEStep, _ accepted: AcceptedRequest, from state: AuthState) -> AuthStep {
        let effects = step.effects.map(AuthEffect.pace)
        switch step.state {
        case .established: return AuthStep(.didAuthenticateEac1(accepted), effects + [.didAuthenticateEAC1])
        case .ended(let exit): return failing(state, reason(exit), before: effects)
        default: return AuthStep(.pace(step.state, accepted), effects)
        }
    }

    /// Why the PACE sub-machine ended, as the authentication's failure.
    static func reason(_ exit: PACEExit) -> FailureReason {
        switch exit {
        case .cancelled: return .userCancelled(during: .authentication)
        case .timedOut: return .inputTimeout(seconds: nil, during: .authentication)
        case .pukInoperative: return .pukInoperative(during: .authentication)
        case .cardError(let error): return AuthWorkflow.cardFailure(error)
        }
    }

    /// EAC1 on the card and its output, EAC2 (with the EACAdditionalInputType round when the
    /// signature came separately), then Transmit (the card's responses, then TransmitResponse)
    /// until StartPAOSResponse.
    static func eac(_ state: AuthState, on event: AuthEvent) -> AuthStep? {
        switch (state, event) {
        case (.didAuthenticateEac1(let accepted), .cardEAC1(let data)):
            return AuthStep(.sendDIDAuthenticateResponseEac1(accepted, data), [.sendEAC1Output(accepted, data)])
        case (.sendDIDAuthenticateResponseEac1(let accepted, let data), .received(.eac2(let input))):
            guard let signature = input.signature else {
                return AuthStep(
                    .eacAdditionalInputType(accepted.terminal, input), [.sendChallenge(data.challenge)])
            }
            return AuthStep(
                .didAuthenticateEac2(accepted.terminal),
                [.didAuthenticateEAC2(accepted.terminal, input, signature: signature)])
        case (.eacAdditionalInputType(let terminal, let input), .received(.eacAdditional(let signature))):
            return AuthStep(
                .didAuthenticateEac2(terminal), [.didAuthenticateEAC2(terminal, input, signature: signature)])
        case (.didAuthenticateEac2(let terminal), .received(.transmit(let request))):
            return AuthStep(.transmit(terminal, stopped: nil), [.transmit(request)])
        case (.transmit, .received(.transmit(let request))):
            return AuthStep(state, [.transmit(request)])
        case (.transmit(let terminal, let stopped), .cardTransmitted(let outputs, let stoppedAt)):
            // A batch stopped at a status word the server does not accept is reported in its
            // response, and the first one stays for the end (AusweisApp's StateTransmit).
            let result = stoppedAt.map { DSSResult(FailureReason.authTransmitStopped($0).result) } ?? .ok
            return AuthStep(
                .transmit(terminal, stopped: stopped ?? stoppedAt),
                [.sendTransmitResponse(TransmitResponse(result: result, outputAPDUs: outputs))])
        default:
            return nil
        }
    }

    /// A failure: reported to the server when it waits for a response (docs/protocol.md, "Reporting a local failure"),
    /// except a broken connection, which ends the exchange at once.
    static func failing(_ state: AuthState, _ reason: FailureReason, before: [AuthEffect] = []) -> AuthStep {
        if state.serverWaits, !reason.isConnectionFailure {
            return AuthStep(
                .sendErrorResponse(reason, state.refreshAddressBasis), before + [.sendError(reason)])
        }
        var step = refresh(AuthOutcome(failure: reason), state.refreshAddressBasis)
        step.effects = before + step.effects
        return step
    }

    static func refresh(_ outcome: AuthOutcome, _ basis: RefreshAddressBasis) -> AuthStep {
        AuthStep(.checkRefreshAddress(outcome, basis), [.determineRefreshAddress(outcome, basis)])
    }
}
