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
            return failing(state, .authUserCancelled)
        case (_, .timedOut):
            return failing(state, .authInputTimeout)
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
            next = event == .accepted ? AuthStep(.selectReader, [.waitForCard]) : nil
        case .selectReader:
            guard case .cardFound(let counter) = event else {
                next = nil
                break
            }
            next = AuthStep(.preparePace(PACEProgress(retryCounter: counter)), [.sendReader, .checkCancelled])
        case .preparePace(let progress):
            next = preparePace(progress, on: event)
        case .enterPacePassword(let password, let progress):
            next =
                event == .answered
                ? AuthStep(.establishPaceChannel(password, progress), [.establishPace(password)]) : nil
        case .establishPaceChannel(let password, let progress):
            next = establishPaceChannel(password, progress, on: event)
        case .updateRetryCounter(let sw, _):
            guard case .retryCounterRead(let left) = event else {
                next = nil
                break
            }
            next = left.map(retryCounterKnown) ?? failing(state, .authCardError(.statusWord(sw)))
        case .resetRetryCounter(let progress):
            next = resetRetryCounter(progress, on: event)
        case .didAuthenticateEac1, .eacAdditionalInputType, .didAuthenticateEac2, .transmit:
            next = eac(state, on: event)
        case .sendErrorResponse, .checkRefreshAddress, .finished:
            next = nil
        }
        if let next { return next }
        if case .received = event { return failing(state, .authUnexpectedServerMessage) }
        return failing(state, .authCardError(.transportFailed("the authentication stopped in \(state.name)")))
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

    /// StatePreparePace: 0 attempts left, the PUK; 1 and no CAN yet, the CAN; else the PIN.
    static func preparePace(_ progress: PACEProgress, on event: AuthEvent) -> AuthStep? {
        guard event == .proceed else { return nil }
        switch progress.retryCounter {
        case 0: return AuthStep(.enterPacePassword(.puk, progress), [.ask(.puk)])
        case 1 where !progress.canEstablished: return AuthStep(.enterPacePassword(.can, progress), [.ask(.can)])
        default: return AuthStep(.enterPacePassword(.pin, progress), [.ask(.pin)])
        }
    }

    /// StateEstablishPaceChannel: PACE with the PIN leads to EAC1; the CAN opens the last PIN
    /// attempt; the PUK unblocks.
    static func establishPaceChannel(_ password: PACEPasswordType, _ progress: PACEProgress, on event: AuthEvent)
        -> AuthStep?
    {
        switch (password, event) {
        case (.pin, .paceEstablished):
            return AuthStep(.didAuthenticateEac1, [.noteCard(CardInfo(retryCounter: 3)), .didAuthenticateEAC1])
        case (.pin, .paceRefused(let sw)):
            guard let left = PACEPasswordRefusal(statusWord: sw)?.pinRetryCounter else {
                return AuthStep(.updateRetryCounter(after: sw, progress), [.readRetryCounter])
            }
            return retryCounterKnown(left)
        case (.can, .paceEstablished):
            var next = progress
            next.canEstablished = true
            return AuthStep(.preparePace(next), [.checkCancelled])
        case (.can, .paceRefused), (.puk, .paceRefused):
            if password == .puk, case .paceRefused(let sw) = event, sw == .authenticationMethodBlocked {
                return pukInoperative()
            }
            return AuthStep(.preparePace(progress), [.checkCancelled])
        case (.puk, .paceEstablished):
            return AuthStep(.resetRetryCounter(progress), [.unblockPIN])
        default:
            return nil
        }
    }

    /// StateResetRetryCounter: the PIN is unblocked (3 attempts), or the PUK is used up.
    static func resetRetryCounter(_ progress: PACEProgress, on event: AuthEvent) -> AuthStep? {
        guard case .unblocked(let outcome) = event else { return nil }
        switch outcome {
        case .done:
            return AuthStep(
                .preparePace(PACEProgress(retryCounter: 3)), [.noteCard(CardInfo(retryCounter: 3)), .checkCancelled])
        case .pukInoperative:
            return pukInoperative()
        case .refused(let sw):
            return failing(.resetRetryCounter(progress), .authCardError(.statusWord(sw)))
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

    private static func retryCounterKnown(_ left: Int) -> AuthStep {
        AuthStep(
            .preparePace(PACEProgress(retryCounter: left)), [.noteCard(CardInfo(retryCounter: left)), .checkCancelled])
    }

    private static func pukInoperative() -> AuthStep {
        failing(
            .preparePace(PACEProgress(retryCounter: 0)), .authPUKInoperative,
            before: [
                .noteCard(CardInfo(inoperative: true, retryCounter: 0)), .sendEnterPUK,
            ])
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
