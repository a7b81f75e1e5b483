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

    public var description: String {
        switch self {
        case .statusWord(let sw): return "the card answered \(sw)"
        case .malformedResponse(let why): return "the card's answer is malformed: \(why)"
        case .malformedCommand(let why): return "malformed command APDU: \(why)"
        case .cardRemoved: return "the card was removed; put it back on the reader and try again"
        case .transportFailed(let why): return "the connection to the card failed: \(why)"
        case .timeout: return "the card did not answer in time; check that it lies still on the reader"
        }
    }
}
