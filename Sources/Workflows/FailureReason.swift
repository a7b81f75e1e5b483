import Online
import SDK
import SmartCard

/// Why a command did not succeed: the one table that gives each reason its stable name (as
/// AusweisApp's FailureCode reasons are named, so that scripts and the STATUS and AUTH
/// messages can name it), eid's exit status, the eCard-API result an SDK client sees, and the
/// sentence with the next step that eid prints after "eid: ". The workflows' outcomes and the
/// card layer's errors come here as typed values (`init(_:timeout:)`, `init(readerError:)`);
/// no face maps them on its own.
///
/// No reason carries a secret: the card errors they carry hold status words and the reader
/// layer's sentences, never command data.
public enum FailureReason: Equatable, Sendable {
    // MARK: Any workflow

    /// CANCEL, end of input, the terminal's Ctrl-C at a prompt, or (authentication) the user
    /// declined the access rights.
    case userCancelled(during: WorkflowKind)
    /// A stop signal (SIGINT, SIGTERM, SIGQUIT, SIGHUP): the workflow cancelled, wiped its
    /// secrets and reset the card.
    case interrupted
    /// A stop signal, and the workflow did not end within the grace time: a command may still
    /// be with the card.
    case interruptedCardBusy
    /// No card, or no answer from the peer, within the timeout (`--timeout`, whole seconds,
    /// when known).
    case inputTimeout(seconds: Int?, during: WorkflowKind)
    /// No terminal to ask for a secret on, and no JSON commands either.
    case noTerminal
    /// The PUK has unblocked the PIN ten times: the card refuses it now.
    case pukInoperative(during: WorkflowKind)
    /// The card left the reader during the workflow.
    case cardRemoved(during: WorkflowKind)
    /// Any other card or reader failure, or a status word the workflow cannot go on with.
    case cardFailed(CardError, during: WorkflowKind)

    // MARK: Authentication
    /// The eID server's terminal failed a TR-03124 check (before any card access).
    case authCheckFailed(AuthCheckError)
    /// The card refused Terminal or Chip Authentication.
    case authEACRefused
    /// EF.CardSecurity is not signed by a document signer of the configured CSCA (`--csca`).
    case authCardNotGenuine
    /// EF.CardSecurity is not SignedData over SecurityInfos, or offers no Chip Authentication eid
    /// runs (AusweisApp's Did_Authenticate_Eac2_Card_Command_Failed: Workflow_No_Permission_Error).
    case authCardSecurityUnusable
    /// The eID server sent a PAOS message out of order.
    case authUnexpectedServerMessage
    /// The eID server sent a PAOS message eid cannot read.
    case authMalformedServerMessage(PAOSError)
    /// The connection to the eID server failed.
    case authConnectionFailed(PAOSTransportError)
    /// The eID server ended the exchange with an error (its StartPAOSResponse).
    case authServerResult(ECardAPIResult)
    /// The card answered one of the eID server's APDUs with a status word the server does not
    /// accept (AusweisApp's Card_Unexpected_Transmit_Status): the authentication fails even
    /// when the server goes on and ends it ok. The card refused the service's command, as it
    /// refuses a terminal: exit 6.
    case authTransmitStopped(StatusWord)
    /// The URL given is neither an https tcTokenURL nor an activation URL holding one.
    case authInvalidActivationURL(ActivationURLError)
    /// The TcToken could not be fetched (TLS-1: network, TLS, redirects, HTTP status).
    case authTcTokenUnavailable(PAOSTransportError)
    /// The TcToken was fetched but is not valid (docs/protocol.md, "TcToken validation").
    case authInvalidTcToken(TcTokenError)
    /// No refresh URL could be determined from the RefreshAddress (docs/protocol.md, "Refresh address check").
    case authRefreshAddressFailed(RefreshAddressError)

    // MARK: Readers

    /// The reader service (pcscd) is not running or not reachable.
    case readerServiceUnavailable(CardError)
    /// The reader service failed otherwise while the readers were listed or watched.
    case readerFailed(CardError)

    /// The stable name of the reason: AusweisApp's FailureCode where one fits
    /// (`Card_Removed`, `Change_Pin_User_Cancelled`, ...), in its spelling otherwise.
    public var name: String {
        switch self {
        case .userCancelled(.changePIN): return "Change_Pin_User_Cancelled"
        case .userCancelled(.authentication): return "User_Cancelled"
        case .interrupted: return "Change_Pin_Interrupted"
        case .interruptedCardBusy: return "Change_Pin_Interrupted_Card_Busy"
        case .inputTimeout(_, .changePIN): return "Change_Pin_Input_Timeout"
        case .inputTimeout(_, .authentication): return "Input_Timeout"
        case .noTerminal: return "Change_Pin_No_Terminal"
        case .pukInoperative(.changePIN): return "Establish_Pace_Channel_Puk_Inoperative"
        case .pukInoperative(.authentication): return "Establish_Pace_Channel_Puk_Inoperative_During_Authentication"
        case .cardRemoved(.changePIN): return "Card_Removed"
        case .cardRemoved(.authentication): return "Card_Removed_During_Authentication"
        case .cardFailed(.statusWord, .changePIN): return "Change_Pin_Unexpected_Transmit_Status"
        case .cardFailed(_, .changePIN): return "Change_Pin_Unrecoverable"
        case .cardFailed(_, .authentication): return "Card_Communication_Error"
        case .readerServiceUnavailable: return "Reader_Service_Unavailable"
        case .readerFailed: return "Reader_Failed"
        case .authCheckFailed(let error): return error.name
        case .authEACRefused: return "Workflow_No_Permission_Error"
        case .authCardNotGenuine: return "Cannot_Confirm_IdCard_Authenticity"
        case .authCardSecurityUnusable: return "Did_Authenticate_Eac2_Card_Command_Failed"
        case .authUnexpectedServerMessage: return "Workflow_Unexpected_Message_From_EidServer"
        case .authMalformedServerMessage: return "Workflow_Unknown_Paos_From_EidServer"
        case .authConnectionFailed(.certificateNotInDescription): return "Generic_Send_Receive_Certificate_Error"
        case .authConnectionFailed: return "Workflow_TrustedChannel_Error_From_Server"
        case .authServerResult: return "Paos_Generic_Server_Error"
        case .authTransmitStopped: return "Card_Unexpected_Transmit_Status"
        case .authInvalidActivationURL: return "Workflow_Wrong_Parameter_Invocation"
        case .authTcTokenUnavailable: return "Workflow_TrustedChannel_Establishment_Error"
        case .authInvalidTcToken: return "Workflow_TrustedChannel_Server_Format_Error"
        case .authRefreshAddressFailed(let error): return error.name
        }
    }

    /// eid's exit status for the reason (eid(1), README "Exit status").
    public var exitStatus: Int32 {
        switch self {
        case .userCancelled, .inputTimeout: return ExitStatus.cancelled
        case .interrupted, .interruptedCardBusy: return ExitStatus.interrupted
        case .noTerminal: return ExitStatus.usage
        case .pukInoperative: return ExitStatus.cardState
        case .cardRemoved, .cardFailed, .readerFailed, .authCardNotGenuine, .authCardSecurityUnusable:
            return ExitStatus.cardError
        case .readerServiceUnavailable: return ExitStatus.serviceUnavailable
        // The card refusing the service's terminal (its signature, its certificates) or its
        // commands refuses the service, not the card.
        case .authCheckFailed, .authEACRefused, .authTransmitStopped, .authUnexpectedServerMessage,
            .authMalformedServerMessage, .authServerResult:
            return ExitStatus.refused
        // A connection whose certificate the description does not list: the service is refused.
        case .authConnectionFailed(.certificateNotInDescription): return ExitStatus.refused
        case .authConnectionFailed, .authTcTokenUnavailable: return ExitStatus.network
        case .authInvalidTcToken: return ExitStatus.refused
        case .authRefreshAddressFailed(.certificateNotInDescription): return ExitStatus.refused
        case .authRefreshAddressFailed: return ExitStatus.network
        case .authInvalidActivationURL(let error):
            return error == .tcTokenURLNotHTTPS ? ExitStatus.refused : ExitStatus.usage
        }
    }

    /// The eCard-API result, with the minor AusweisApp gives the same failure (a removed card
    /// counts as the user's cancellation there; a used-up PUK as no permission).
    public var result: ECardAPIResult {
        switch self {
        case .userCancelled, .interrupted, .interruptedCardBusy, .cardRemoved: return .error(.cancellationByUser)
        case .inputTimeout, .cardFailed, .authTransmitStopped: return .error(.unknownError)
        case .noTerminal, .readerServiceUnavailable, .readerFailed: return .error(.communicationError)
        case .pukInoperative, .authEACRefused, .authCardSecurityUnusable: return .error(.noPermission)
        case .authCheckFailed(let error): return error.result
        case .authCardNotGenuine, .authUnexpectedServerMessage: return .error(.internalError)
        case .authMalformedServerMessage(let error): return error.result
        case .authConnectionFailed: return .error(.trustedChannelEstablishmentFailed)
        case .authServerResult(let result): return result.reportedByClient
        case .authInvalidActivationURL(let error): return error.result
        case .authTcTokenUnavailable: return .error(.trustedChannelEstablishmentFailed)
        case .authInvalidTcToken(let error): return error.result
        case .authRefreshAddressFailed: return .error(.communicationError)
        }
    }

    /// What happened and what to do next, for a person (eid prints it after "eid: ").
    public var sentence: String {
        switch self {
        case .userCancelled(.changePIN), .interrupted:
            return "cancelled; the PIN was not changed"
        case .userCancelled(.authentication): return "cancelled; no data was sent to the service"
        case .interruptedCardBusy:
            return "interrupted while the card was busy; `eid readers` shows its PIN state"
        case .inputTimeout(let seconds?, .changePIN):
            return "no answer within \(seconds) s; the PIN was not changed"
        case .inputTimeout(nil, .changePIN):
            return "no answer in time; the PIN was not changed"
        case .inputTimeout(_, .authentication): return "no answer in time; the authentication was cancelled"
        case .noTerminal:
            return "no terminal to ask for the PIN on; use --json and send SET_PIN commands on standard input"
        case .pukInoperative:
            return "the PUK can no longer unblock the PIN; ask the citizen office for a new PIN letter"
        case .cardRemoved(let workflow): return Self.failed(workflow) + ": \(CardError.cardRemoved)"
        case .cardFailed(let error, let workflow): return Self.failed(workflow) + ": \(error)"
        case .readerServiceUnavailable(let error), .readerFailed(let error):
            return "\(error)"
        case .authCheckFailed(let error): return "the service was refused: \(error)"
        case .authEACRefused: return "the card refused the service's terminal authentication"
        case .authCardNotGenuine: return "the card's authenticity could not be confirmed"
        case .authCardSecurityUnusable:
            return "the card's EF.CardSecurity is malformed or offers no Chip Authentication eid can run"
        case .authUnexpectedServerMessage: return "the eID server sent a message out of order"
        case .authMalformedServerMessage(let error): return "the eID server's message was refused: \(error)"
        case .authConnectionFailed(let error): return "\(error)"
        case .authServerResult(let result):
            return "the eID server ended the authentication with " + (result.minor?.rawValue ?? result.major.rawValue)
        case .authTransmitStopped(let statusWord):
            return "the card refused a command of the eID server with \(statusWord), so the authentication failed;"
                + " try again, and tell the service if it happens again"
        case .authInvalidActivationURL(.tcTokenURLNotHTTPS):
            return "refused: the tcTokenURL is not https; an eID service must be reached over https"
        case .authInvalidActivationURL(let error):
            return "the URL cannot be used: \(error); give the service's https tcTokenURL or its activation URL"
        case .authTcTokenUnavailable(let error): return "the TcToken could not be fetched: \(error)"
        case .authInvalidTcToken(let error): return "the service's TcToken was refused: \(error)"
        case .authRefreshAddressFailed(let error): return "\(error)"
        }
    }

    /// The user ended it. The JSON face prints no sentence for it: its last message
    /// (CHANGE_PIN, `success: false`) says it all.
    public var isCancellation: Bool {
        switch self {
        case .userCancelled, .interrupted: return true
        default: return false
        }
    }

    /// How a sentence says that `workflow` did not succeed.
    private static func failed(_ workflow: WorkflowKind) -> String {
        workflow == .changePIN ? "the PIN was not changed" : "the authentication failed"
    }

    /// The connection to the eID server is gone: nothing more can be reported to it.
    public var isConnectionFailure: Bool {
        switch self {
        case .authConnectionFailed, .authTcTokenUnavailable, .authInvalidTcToken, .authInvalidActivationURL:
            return true
        default: return false
        }
    }
}

extension FailureReason {
    /// Why change PIN ended as it did; nil when the PIN was changed. `timeout` is the
    /// workflow's timeout in seconds.
    public init?(_ outcome: ChangePINWorkflow.Outcome, timeout: Double) {
        switch outcome {
        case .changed: return nil
        case .cancelled: self = .userCancelled(during: .changePIN)
        case .timedOut: self = .inputTimeout(seconds: Int(timeout), during: .changePIN)
        case .pukInoperative: self = .pukInoperative(during: .changePIN)
        case .cardError(let error): self = .card(error, during: .changePIN)
        }
    }

    /// A card or reader failure in `workflow`: a removed card is named apart.
    public static func card(_ error: CardError, during workflow: WorkflowKind) -> FailureReason {
        if case .cardRemoved = error { return .cardRemoved(during: workflow) }
        return .cardFailed(error, during: workflow)
    }

    /// Why the readers could not be listed or watched.
    public init(readerError error: CardError) {
        if case .readerServiceUnavailable = error {
            self = .readerServiceUnavailable(error)
        } else {
            self = .readerFailed(error)
        }
    }
}
