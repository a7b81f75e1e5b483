import EAC
import Online

/// What the workflow does on a transition, with the data it works on. The ones marked "→" give
/// the next event.
public enum AuthEffect: WorkflowEffect {
    /// → `tcTokenFetched`, `tcTokenFailed`: the TcToken from the tcTokenURL and the transport to
    /// its eID server, by the injected fetcher.
    case fetchTcToken(tcTokenURL: String)
    /// → `received`, `failed`: StartPAOS with the TcToken's session.
    case sendStartPAOS
    /// → `received`, `failed`.
    case sendInitializeFrameworkResponse
    /// → `terminalAccepted`, `failed`: the TR-03124 checks of the EAC1 input.
    case checkTerminal(EAC1InputType)
    /// → `accepted`, `cancelled`, `timedOut`: ACCESS_RIGHTS, then SET_ACCESS_RIGHTS, GET_* until ACCEPT.
    case editAccessRights(TerminalCheck)
    /// An effect of the PACE sub-machine, with the effective CHAT.
    case pace(PACEEffect)
    /// → `cardEAC1`, `failed`: GET CHALLENGE, with what PACE gave.
    case didAuthenticateEAC1
    /// → `received`, `failed`: the EAC1 output.
    case sendEAC1Output(AcceptedRequest, EAC1CardData)
    /// → `received`, `failed`: the challenge alone, asking for the signature.
    case sendChallenge([UInt8])
    /// → `received`, `failed`: TA with the signature, EF.CardSecurity, CA with the input's key,
    /// then the EAC2 output.
    case didAuthenticateEAC2(TerminalCheck, EAC2InputType, signature: [UInt8])
    /// → `cardTransmitted`, `failed`: these APDUs of the server to the card, in order, up to the
    /// first response whose status word the server does not accept (docs/protocol.md, "PAOS messages").
    case transmit(Transmit)
    /// → `received`, `failed`: the card's responses to the server.
    case sendTransmitResponse(TransmitResponse)
    /// → `received`, `failed`: the response the server waits for, with the failure's result.
    case sendError(FailureReason)
    /// → `refreshAddressDetermined`, `refreshAddressFailed`: the refresh address checked (docs/protocol.md,
    /// "Refresh address check") with the result parameters, or the communication-error address.
    case determineRefreshAddress(AuthOutcome, RefreshAddressBasis)

    public var givesEvent: Bool {
        if case .pace(let effect) = self { return effect.givesEvent }
        return true
    }
}
