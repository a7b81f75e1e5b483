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
        case (.checkRefreshAddress(let outcome), .proceed):
            return AuthStep(.finished(outcome))
        case (.checkRefreshAddress(let outcome), .failed(let reason)):
            // No refresh URL (§1.6): a success becomes that failure; an earlier failure stands.
            guard outcome.result.major == .ok else { return AuthStep(.finished(outcome)) }
            return AuthStep(.finished(AuthOutcome(result: reason.result, reason: reason, fromServer: false)))
        case (.checkRefreshAddress, _):
            return AuthStep(state)
        case (.sendErrorResponse(let local), .received(.startPAOSResponse(let result))):
            return refresh(.combining(local: local, server: result))
        case (.sendErrorResponse(let local), _):
            // The server did not end the exchange after the report: the local failure stands.
            return refresh(AuthOutcome(result: local.result, reason: local, fromServer: false))
        case (_, .received(.startPAOSResponse(let result))):
            return refresh(.combining(local: nil, server: result))
        case (_, .failed(let reason)):
            return failing(state, reason)
        case (_, .cancelled):
            return failing(state, .userCancelled(during: .authentication))
        case (_, .timedOut):
            return failing(state, .inputTimeout(seconds: nil, during: .authentication))
        default:
            break
        }
        let next: AuthStep?
        switch state {
        case .startPaos, .initializeFramework:
            next = paosStart(state, on: event)
        case .processCvcsAndSetRights:
            next = event == .terminalAccepted ? AuthStep(.editAccessRights, [.editAccessRights]) : nil
        case .editAccessRights:
            next = event == .accepted ? leavingPACE(PACEState.start, from: state) : nil
        case .pace(let pace):
            guard case .pace(let event) = event, let step = PACEState.transition(from: pace, on: event) else {
                next = nil
                break
            }
            next = leavingPACE(step, from: state)
        case .didAuthenticateEac1, .eacAdditionalInputType, .didAuthenticateEac2, .transmit:
            next = eac(state, on: event)
        case .sendErrorResponse, .checkRefreshAddress, .finished:
            next = nil
        }
        if let next { return next }
        if case .received = event { return failing(state, .authUnexpectedServerMessage) }
        return failing(
            state, .cardFailed(.transportFailed("the authentication stopped in \(state.name)"), during: .authentication)
        )
    }

    /// The first step: StartPAOS.
    public static let start = AuthStep(.startPaos, [.sendStartPAOS])

    /// StartPAOS is answered by InitializeFramework or directly by EAC1 (§2.4).
    static func paosStart(_ state: AuthState, on event: AuthEvent) -> AuthStep? {
        switch (state, event) {
        case (.startPaos, .received(.initializeFramework)):
            return AuthStep(.initializeFramework, [.sendInitializeFrameworkResponse])
        case (_, .received(.eac1)):
            return AuthStep(.processCvcsAndSetRights, [.checkTerminal])
        default:
            return nil
        }
    }

    /// A step of the PACE sub-machine as the workflow's: PACE with the PIN leads to EAC1; the
    /// sub-machine's end is a failure, reported to the server.
    static func leavingPACE(_ step: PACEStep, from state: AuthState) -> AuthStep {
        let effects = step.effects.map(AuthEffect.pace)
        switch step.state {
        case .established: return AuthStep(.didAuthenticateEac1, effects + [.didAuthenticateEAC1])
        case .ended(let exit): return failing(state, reason(exit), before: effects)
        default: return AuthStep(.pace(step.state), effects)
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

    /// EAC1 output, EAC2 (with the EACAdditionalInputType round when the signature came
    /// separately), then Transmit until StartPAOSResponse.
    static func eac(_ state: AuthState, on event: AuthEvent) -> AuthStep? {
        switch (state, event) {
        case (.didAuthenticateEac1, .received(.eac2(signed: true))),
            (.eacAdditionalInputType, .received(.eacAdditional)):
            return AuthStep(.didAuthenticateEac2, [.didAuthenticateEAC2])
        case (.didAuthenticateEac1, .received(.eac2(signed: false))):
            return AuthStep(.eacAdditionalInputType, [.sendChallenge])
        case (.didAuthenticateEac2, .received(.transmit)), (.transmit, .received(.transmit)):
            return AuthStep(.transmit, [.transmit])
        default:
            return nil
        }
    }

    /// A failure: reported to the server when it waits for a response (AUTH-PROTOCOL.md §2.4),
    /// except a broken connection, which ends the exchange at once.
    static func failing(_ state: AuthState, _ reason: FailureReason, before: [AuthEffect] = []) -> AuthStep {
        if state.serverWaits, !reason.isConnectionFailure {
            return AuthStep(.sendErrorResponse(reason), before + [.sendError(reason)])
        }
        var step = refresh(AuthOutcome(result: reason.result, reason: reason, fromServer: false))
        step.effects = before + step.effects
        return step
    }

    static func refresh(_ outcome: AuthOutcome) -> AuthStep {
        AuthStep(.checkRefreshAddress(outcome), [.determineRefreshAddress(outcome)])
    }
}
