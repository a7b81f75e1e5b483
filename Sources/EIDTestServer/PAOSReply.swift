import Online

/// What the server answers a client's PAOS message with, in the HTTP response to its POST.
public enum PAOSReply: Equatable, Sendable {
    /// The next server message (StartPAOSResponse at the end).
    case message(PAOSEnvelope)
    /// Bytes that are not the encoding of a typed message: not well-formed (the fault
    /// `broken_xml`), or edited at the XML level (`EIDServerSession+ElementFaults`).
    case malformed([UInt8])
    /// No answer: the front end closes the connection (the fault `abort_mid_transmit`).
    case closeConnection

    /// The HTTP body; nil when the connection is to be closed instead.
    public var body: [UInt8]? {
        switch self {
        case .message(let envelope): return envelope.encoded()
        case .malformed(let bytes): return bytes
        case .closeConnection: return nil
        }
    }

    /// The message, when there is one.
    public var envelope: PAOSEnvelope? {
        if case .message(let envelope) = self { return envelope }
        return nil
    }
}
