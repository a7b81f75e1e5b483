import EAC
import Online
import SmartCard

/// The server's message that came, with what the workflow works on next (the envelope and its
/// addressing stay with the PAOS conversation).
public enum ServerMessage: Equatable, Sendable {
    case initializeFramework
    case eac1(EAC1InputType)
    /// EAC2InputType, with or without the TA signature.
    case eac2(EAC2InputType)
    /// The TA signature alone (EACAdditionalInputType).
    case eacAdditional(signature: [UInt8])
    case transmit(Transmit)
    case startPAOSResponse(DSSResult)
}

/// What happened: the result of the last effect, or the user's answer.
public enum AuthEvent: Equatable, Sendable {
    /// The TcToken came and the transport to its eID server is open (the workflow holds them).
    case tcTokenFetched
    /// No usable TcToken or no transport: why, and where the browser goes (a refused token's
    /// CommunicationErrorAddress with communicationError), if anywhere.
    case tcTokenFailed(FailureReason, url: RefreshTarget?)
    /// The server's next message.
    case received(ServerMessage)
    /// The EAC1 checks passed.
    case terminalAccepted(TerminalCheck)
    /// The user accepted these access rights.
    case accepted(AccessRightsRequest)
    /// The card's part of EAC1 is done.
    case cardEAC1(EAC1CardData)
    /// The card answered the server's APDUs: the responses, and the status word the batch
    /// stopped at, one the server does not accept (nil: it accepted every response).
    case cardTransmitted([[UInt8]], stoppedAt: StatusWord?)
    /// The refresh address is determined: where the browser goes (nil: nowhere).
    case refreshAddressDetermined(url: RefreshTarget?)
    /// No refresh URL (docs/protocol.md, "Refresh address check"): why, and the communication-error address
    /// the browser goes to instead.
    case refreshAddressFailed(FailureReason, url: RefreshTarget?)
    case cancelled
    case timedOut
    /// An event of the PACE sub-machine (its cancellation, timeout and failure come as the
    /// workflow's own).
    case pace(PACEEvent)
    /// Something failed: the card, a check, the server's message, the connection.
    case failed(FailureReason)
}
