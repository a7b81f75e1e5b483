/// What can go wrong between eid and a card, at the level of APDUs.
public enum CardError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The card answered with a status word that the operation cannot continue with.
    case statusWord(StatusWord)
    /// The card's answer is not a well-formed response (too short, or its content is not what
    /// the command returns).
    case malformedResponse(String)
    /// A command received by a card is not a well-formed APDU.
    case malformedCommand(String)
    /// The card left the reader (or lost power) during the operation.
    case cardRemoved
    /// The transport failed for another reason: the reader was unplugged, pcscd went away, the
    /// connection to the software card was closed. The text names the cause.
    case transportFailed(String)
    /// The card did not answer in time.
    case timeout
    /// Another program holds the card exclusively (PC/SC: SCARD_E_SHARING_VIOLATION).
    case cardInUse
    /// The reader service (pcscd) is not running or cannot be reached. The text is the reader
    /// layer's sentence: what failed and how to start the service.
    case readerServiceUnavailable(String)
    /// The reader layer failed otherwise: the reader went away, the service reported an error.
    /// The text is the reader layer's sentence, with the next step.
    case readerFailed(String)

    public var description: String {
        switch self {
        case .statusWord(let sw): return "the card answered \(sw)"
        case .malformedResponse(let why): return "the card's answer is malformed: \(why)"
        case .malformedCommand(let why): return "malformed command APDU: \(why)"
        case .cardRemoved: return "the card was removed; put it back on the reader and try again"
        case .transportFailed(let why): return "the connection to the card failed: \(why)"
        case .timeout: return "the card did not answer in time; check that it lies still on the reader"
        case .cardInUse: return "another program holds the card; close it and try again"
        case .readerServiceUnavailable(let sentence), .readerFailed(let sentence): return sentence
        }
    }
}

extension CardError {
    /// `error` as a card error: a `CardError` as it is, anything else (no layer below the
    /// workflows throws one today) as a transport failure that names it.
    public init(_ error: any Error) {
        self = error as? CardError ?? .transportFailed(String(describing: error))
    }
}
