import EAC
import Online
import SDK
import SmartCard

/// Where the authentication workflow is (TR-03124 online authentication without the network
/// parts: the TcToken is given, the PAOS messages go through a `PAOSTransport`). The names are
/// AusweisApp's (CompositeStateTrustedChannel, CompositeStatePace, StateCheckRefreshAddress);
/// `name` is what STATUS will carry. The workflow moves only through
/// `AuthState.transition(from:on:)`, a pure function that also says which effects to perform;
/// `AuthWorkflow` performs them.
public enum AuthState: Equatable, Sendable {
    /// StartPAOS goes to the eID server (StateStartPaos, StateSendStartPaos).
    case startPaos
    /// InitializeFrameworkResponse goes to the server (StateInitializeFramework).
    case initializeFramework
    /// The EAC1 checks (StateExtractCvcsFromEac1InputType … StateCheckCertificates).
    case processCvcsAndSetRights
    /// ACCESS_RIGHTS is with the user until ACCEPT (StateEditAccessRights).
    case editAccessRights
    /// The card search and PACE with the effective CHAT (CompositeStatePace, as in change PIN).
    case pace(PACEState)
    /// GET CHALLENGE and the EAC1 output to the server (StateDidAuthenticateEac1).
    case didAuthenticateEac1
    /// The challenge went back alone; the signature comes in EACAdditionalInputType
    /// (StateEACAdditionalInputType).
    case eacAdditionalInputType
    /// TA with the server's signature, EF.CardSecurity, CA, the EAC2 output (StateDidAuthenticateEac2).
    case didAuthenticateEac2
    /// The server's APDUs go to the card unchanged (StateTransmit).
    case transmit
    /// A local failure is reported in the response the server waits for
    /// (StateGenericSendReceive's error report).
    case sendErrorResponse(FailureReason)
    /// The StartPAOSResponse (or a failure before it) decided the outcome; now where the
    /// browser goes: the refresh address or the communication-error address
    /// (StateStartPaosResponse, StateCheckRefreshAddress).
    case checkRefreshAddress(AuthOutcome)
    /// The end.
    case finished(AuthOutcome)

    /// The state's name, as AusweisApp names it.
    public var name: String {
        switch self {
        case .startPaos: return "StateStartPaos"
        case .initializeFramework: return "StateInitializeFramework"
        case .processCvcsAndSetRights: return "StatePreVerification"
        case .editAccessRights: return "StateEditAccessRights"
        case .pace(let state): return state.name
        case .didAuthenticateEac1: return "StateDidAuthenticateEac1"
        case .eacAdditionalInputType: return "StateEACAdditionalInputType"
        case .didAuthenticateEac2: return "StateDidAuthenticateEac2"
        case .transmit: return "StateTransmit"
        case .sendErrorResponse: return "StateSendErrorResponse"
        case .checkRefreshAddress: return "StateCheckRefreshAddress"
        case .finished: return "StateFinished"
        }
    }

    /// Whether the eID server waits for a response of the client in this state, so that a
    /// local failure is reported to it (AUTH-PROTOCOL.md §2.4).
    var serverWaits: Bool {
        switch self {
        case .startPaos, .eacAdditionalInputType, .sendErrorResponse, .checkRefreshAddress,
            .finished:
            return false
        default:
            return true
        }
    }
}

/// How the authentication ended: the result for the AUTH message and the refresh URL, the
/// reason when it failed, and whether the result is the server's.
public struct AuthOutcome: Equatable, Sendable {
    public var result: ECardAPIResult
    /// Why it failed; nil on success.
    public var reason: FailureReason?
    /// The result came from the server's StartPAOSResponse.
    public var fromServer: Bool

    public init(result: ECardAPIResult, reason: FailureReason?, fromServer: Bool) {
        self.result = result
        self.reason = reason
        self.fromServer = fromServer
    }

    public static let ok = AuthOutcome(result: .ok, reason: nil, fromServer: false)

    /// AusweisApp's choice (AUTH-PROTOCOL.md §1.7): the local status when the user cancelled or
    /// the server's result was ok; the server's result otherwise.
    static func combining(local: FailureReason?, server: DSSResult) -> AuthOutcome {
        if let local, local.isCancellation || server.major == .ok {
            return AuthOutcome(result: local.result, reason: local, fromServer: false)
        }
        if server.major == .error {
            // The reason stays the local one when there is one: it says more than the server's echo.
            // The result is the server's as AusweisApp reports it (`reportedByClient`).
            return AuthOutcome(
                result: server.ecardAPIResult.reportedByClient,
                reason: local ?? .authServerResult(server.ecardAPIResult), fromServer: true)
        }
        return AuthOutcome(result: server.ecardAPIResult, reason: nil, fromServer: true)
    }
}

/// The server's message that came, by what the workflow decides on (the message itself stays
/// with the workflow).
public enum ServerMessage: Equatable, Sendable {
    case initializeFramework
    case eac1
    /// EAC2InputType, with or without the TA signature.
    case eac2(signed: Bool)
    case eacAdditional
    case transmit
    case startPAOSResponse(DSSResult)
}

/// What happened: the result of the last effect, or the user's answer.
public enum AuthEvent: Equatable, Sendable {
    /// The server's next message.
    case received(ServerMessage)
    /// The EAC1 checks passed.
    case terminalAccepted
    /// The user accepted the access rights.
    case accepted
    /// The refresh address is determined.
    case proceed
    case cancelled
    case timedOut
    /// An event of the PACE sub-machine (its cancellation, timeout and failure come as the
    /// workflow's own).
    case pace(PACEEvent)
    /// Something failed: the card, a check, the server's message, the connection.
    case failed(FailureReason)
}

/// What the workflow does on a transition. The ones marked "→" give the next event.
public enum AuthEffect: WorkflowEffect {
    /// → `received`, `failed`: StartPAOS with the TcToken's session.
    case sendStartPAOS
    /// → `received`, `failed`.
    case sendInitializeFrameworkResponse
    /// → `terminalAccepted`, `failed`: the TR-03124 checks of the EAC1 input.
    case checkTerminal
    /// → `accepted`, `cancelled`, `timedOut`: ACCESS_RIGHTS, then SET_ACCESS_RIGHTS, GET_* until ACCEPT.
    case editAccessRights
    /// An effect of the PACE sub-machine, with the effective CHAT.
    case pace(PACEEffect)
    /// → `received`, `failed`: GET CHALLENGE, then the EAC1 output.
    case didAuthenticateEAC1
    /// → `received`, `failed`: the challenge alone, asking for the signature.
    case sendChallenge
    /// → `received`, `failed`: TA, EF.CardSecurity, CA, then the EAC2 output.
    case didAuthenticateEAC2
    /// → `received`, `failed`: the APDUs of the last Transmit, then TransmitResponse.
    case transmit
    /// → `received`, `failed`: the response the server waits for, with the failure's result.
    case sendError(FailureReason)
    /// → `proceed`, `failed`: the refresh address checked (§1.6) with the result parameters, or the
    /// communication-error address.
    case determineRefreshAddress(AuthOutcome)

    public var givesEvent: Bool {
        if case .pace(let effect) = self { return effect.givesEvent }
        return true
    }
}

/// The next state and what to do to get there.
public typealias AuthStep = WorkflowStep<AuthState, AuthEffect>
