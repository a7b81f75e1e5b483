import EAC
import Online
import SDK
import SmartCard

/// Where the authentication workflow is (TR-03124 online authentication: from the tcTokenURL to
/// the refresh address). The names are AusweisApp's (StateGetTcToken,
/// CompositeStateTrustedChannel, CompositeStatePace, StateCheckRefreshAddress); `name` is what
/// STATUS will carry. A state holds the data its step needs: the server's message it works on,
/// the checked terminal and the rights the user accepted. The workflow moves only through
/// `AuthState.transition(from:on:)`, a pure function that also says which effects to perform;
/// `AuthWorkflow` performs them.
///
/// `TerminalCheck` (certificates, description, rights) is compared field by field: the values
/// are a few kilobytes of bytes and are compared only when a test compares steps, so Equatable
/// stays the plain synthesized one.
public enum AuthState: Equatable, Sendable {
    /// The TcToken is fetched from this tcTokenURL and the PAOS transport to its eID server
    /// opened (StateGetTcToken).
    case getTcToken(tcTokenURL: String)
    /// StartPAOS goes to the eID server (StateStartPaos, StateSendStartPaos).
    case startPaos
    /// InitializeFrameworkResponse goes to the server (StateInitializeFramework).
    case initializeFramework
    /// The EAC1 checks of the server's EAC1 input (StateExtractCvcsFromEac1InputType …
    /// StateCheckCertificates).
    case processCvcsAndSetRights(EAC1InputType)
    /// ACCESS_RIGHTS for the checked terminal is with the user until ACCEPT (StateEditAccessRights).
    case editAccessRights(TerminalCheck)
    /// The card search and PACE with the accepted rights' CHAT (CompositeStatePace, as in change PIN).
    case pace(PACEState, AcceptedRequest)
    /// GET CHALLENGE and what PACE gave, on the card (StateDidAuthenticateEac1).
    case didAuthenticateEac1(AcceptedRequest)
    /// The EAC1 output of the card goes to the server (StateSendDIDAuthenticateResponseEAC1).
    case sendDIDAuthenticateResponseEac1(AcceptedRequest, EAC1CardData)
    /// The challenge went back alone with this EAC2 input; the signature comes in
    /// EACAdditionalInputType (StateEACAdditionalInputType).
    case eacAdditionalInputType(TerminalCheck, EAC2InputType)
    /// TA with the server's signature, EF.CardSecurity, CA, the EAC2 output (StateDidAuthenticateEac2).
    case didAuthenticateEac2(TerminalCheck)
    /// The server's APDUs go to the card unchanged, the card's responses back (StateTransmit,
    /// StateSendTransmitResponse). `stopped`: the status word an earlier batch stopped at, which
    /// stays to the end as AusweisApp's Card_Unexpected_Transmit_Status does: the
    /// authentication fails although the server goes on and may end it ok.
    case transmit(TerminalCheck, stopped: StatusWord?)
    /// A local failure is reported in the response the server waits for
    /// (StateGenericSendReceive's error report).
    case sendErrorResponse(FailureReason, RefreshAddressBasis)
    /// The StartPAOSResponse (or a failure before it) decided the outcome; now where the
    /// browser goes: the refresh address or the communication-error address
    /// (StateStartPaosResponse, StateCheckRefreshAddress).
    case checkRefreshAddress(AuthOutcome, RefreshAddressBasis)
    /// The end: the outcome and the address the browser goes to.
    case finished(AuthOutcome, url: RefreshTarget?)

    /// The state's name, as AusweisApp names it.
    public var name: String {
        switch self {
        case .getTcToken: return "StateGetTcToken"
        case .startPaos: return "StateStartPaos"
        case .initializeFramework: return "StateInitializeFramework"
        case .processCvcsAndSetRights: return "StatePreVerification"
        case .editAccessRights: return "StateEditAccessRights"
        case .pace(let state, _): return state.name
        case .didAuthenticateEac1: return "StateDidAuthenticateEac1"
        case .sendDIDAuthenticateResponseEac1: return "StateSendDIDAuthenticateResponseEAC1"
        case .eacAdditionalInputType: return "StateEACAdditionalInputType"
        case .didAuthenticateEac2: return "StateDidAuthenticateEac2"
        case .transmit: return "StateTransmit"
        case .sendErrorResponse: return "StateSendErrorResponse"
        case .checkRefreshAddress: return "StateCheckRefreshAddress"
        case .finished: return "StateFinished"
        }
    }

    /// Whether the eID server waits for a response of the client in this state, so that a
    /// local failure is reported to it (docs/protocol.md, "Reporting a local failure").
    var serverWaits: Bool {
        switch self {
        case .getTcToken, .startPaos, .eacAdditionalInputType, .sendErrorResponse, .checkRefreshAddress, .finished:
            return false
        default:
            return true
        }
    }

    /// What the refresh address is checked against when the workflow ends from this state.
    var refreshAddressBasis: RefreshAddressBasis {
        switch self {
        case .getTcToken:
            return .noTcToken(url: nil)
        case .startPaos, .initializeFramework, .finished:
            return .tcTokenURL
        case .processCvcsAndSetRights(let input):
            // Only the EAC1 checks end this state: EAC1 was refused.
            return .refusedEAC1(input)
        case .editAccessRights(let terminal), .eacAdditionalInputType(let terminal, _),
            .didAuthenticateEac2(let terminal), .transmit(let terminal, _):
            return .terminal(terminal)
        case .pace(_, let accepted), .didAuthenticateEac1(let accepted),
            .sendDIDAuthenticateResponseEac1(let accepted, _):
            return .terminal(accepted.terminal)
        case .sendErrorResponse(_, let basis), .checkRefreshAddress(_, let basis):
            return basis
        }
    }
}

/// What the user accepted: the checked terminal and the access rights as chosen (their
/// effective CHAT goes to PACE and into the EAC1 output).
/// The workflow makes it on ACCEPT (the memberwise initializer is the module's).
public struct AcceptedRequest: Equatable, Sendable {
    public var terminal: TerminalCheck
    public var rights: AccessRightsRequest
}

/// What the refresh address is checked against (docs/protocol.md, "Refresh address check"), as far as the
/// authentication got.
public enum RefreshAddressBasis: Equatable, Sendable {
    /// No TcToken: no refresh address; the browser goes to this address (a refused token's
    /// CommunicationErrorAddress with communicationError) or nowhere.
    case noTcToken(url: RefreshTarget?)
    /// Before EAC1: the tcTokenURL stands in for the subjectURL, no CommCertificates.
    case tcTokenURL
    /// EAC1 was refused: the description it came with, if it has one (`RefreshAddressCheck(refusedEAC1:)`).
    case refusedEAC1(EAC1InputType)
    /// The checked terminal's description.
    case terminal(TerminalCheck)
}

/// The next state and what to do to get there.
public typealias AuthStep = WorkflowStep<AuthState, AuthEffect>
