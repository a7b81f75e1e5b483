import Online
import SmartCard

/// Why a session ended without success: a stable name (`reason`, what `/result` shows), the
/// eCard-API result the server's StartPAOSResponse carries, and a sentence. Nothing the
/// client sent is quoted.
public enum SessionFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// StartPAOS named a session this server does not have.
    case unknownSession
    /// The client sent a message that may not come now (its kind).
    case unexpectedMessage(PAOSMessage.Kind)
    /// The client's RelatesTo is not the MessageID of the server's last message.
    case relatesToMismatch
    /// The client's message is not a PAOS message this profile knows.
    case malformedMessage(PAOSError)
    /// The client reported an error in its response (the result it sent).
    case clientReported(ECardAPIResult)
    /// The client did not answer within the session's timeout.
    case timedOut
    /// An EAC1 output element is missing or wrong (its name).
    case invalidEAC1Output(String)
    /// The effective CHAT lacks a required right or holds one that was not asked for.
    case chatNotAsRequested
    /// An EAC2 output element is missing or wrong (its name).
    case invalidEAC2Output(String)
    /// EF.CardSecurity's signature does not verify, not even with its own signer certificate.
    case passiveAuthenticationFailed
    /// Chip Authentication failed: the card's token is wrong, or EF.CardSecurity offers no usable key.
    case chipAuthenticationFailed
    /// A response APDU failed the server's secure messaging (MAC, missing protection).
    case secureMessagingFailed
    /// The card refused a command the server sent (which, and the status word).
    case cardRefused(command: String, StatusWord)
    /// The TransmitResponse holds more responses than commands were sent, or none.
    case malformedTransmitResponse
    /// The client went on after a response whose status word the command's AcceptableStatusCode
    /// did not accept (the command), instead of stopping there (TR-03112-7 Transmit).
    case transmitNotStopped(command: String)
    /// A fault the session was asked to inject ended it.
    case injected(ServerFault)

    /// The stable name of the failure.
    public var reason: String {
        switch self {
        case .unknownSession: return "unknown_session"
        case .unexpectedMessage: return "unexpected_message"
        case .relatesToMismatch: return "relates_to_mismatch"
        case .malformedMessage: return "malformed_message"
        case .clientReported: return "client_reported_error"
        case .timedOut: return "timeout"
        case .invalidEAC1Output: return "invalid_eac1_output"
        case .chatNotAsRequested: return "chat_not_as_requested"
        case .invalidEAC2Output: return "invalid_eac2_output"
        case .passiveAuthenticationFailed: return "passive_authentication_failed"
        case .chipAuthenticationFailed: return "chip_authentication_failed"
        case .secureMessagingFailed: return "secure_messaging_failed"
        case .cardRefused: return "card_refused"
        case .malformedTransmitResponse: return "malformed_transmit_response"
        case .transmitNotStopped: return "transmit_not_stopped"
        case .injected(let fault): return fault.rawValue
        }
    }

    /// What the server's StartPAOSResponse reports.
    public var result: ECardAPIResult {
        switch self {
        case .unknownSession, .invalidEAC1Output, .chatNotAsRequested, .invalidEAC2Output:
            return .error(.parameterError)
        case .unexpectedMessage, .relatesToMismatch, .malformedMessage, .malformedTransmitResponse, .transmitNotStopped:
            return .error(.internalError)
        case .clientReported(let result): return result.major == .error ? result : .error(.unknownError)
        case .timedOut: return .error(.timeout)
        case .passiveAuthenticationFailed, .chipAuthenticationFailed, .secureMessagingFailed:
            return .error(.securityConditionNotSatisfied)
        case .cardRefused: return .error(.unknownError)
        case .injected: return .error(.internalError)
        }
    }

    public var description: String {
        switch self {
        case .unknownSession: return "the StartPAOS names no session of this server: fetch a new TcToken"
        case .unexpectedMessage(let kind): return "the client sent \(kind.rawValue), which may not come now"
        case .relatesToMismatch: return "the client's RelatesTo is not the MessageID of the server's last message"
        case .malformedMessage(let error): return "the client's message was refused: \(error)"
        case .clientReported(let result):
            return "the client reported an error (\(result.minor?.rawValue ?? result.major.rawValue))"
        case .timedOut: return "the client did not answer in time; the session timed out"
        case .invalidEAC1Output(let element): return "the client's EAC1 output has no valid \(element)"
        case .chatNotAsRequested:
            return "the client's CHAT lacks a required right or holds one the server did not ask for"
        case .invalidEAC2Output(let element): return "the client's EAC2 output has no valid \(element)"
        case .passiveAuthenticationFailed: return "EF.CardSecurity is not validly signed"
        case .chipAuthenticationFailed: return "Chip Authentication failed: the card's token is wrong"
        case .secureMessagingFailed: return "a card response failed the server's secure messaging check"
        case .cardRefused(let command, let sw): return "the card refused \(command) with \(sw)"
        case .malformedTransmitResponse: return "the TransmitResponse does not match the Transmit"
        case .transmitNotStopped(let command):
            return "the client sent APDUs after \(command), whose status word was not acceptable, instead of stopping"
        case .injected(let fault): return "the fault \(fault.rawValue) ended the session as asked"
        }
    }
}
