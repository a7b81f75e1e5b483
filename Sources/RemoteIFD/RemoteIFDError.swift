/// What can go wrong between eid and a phone used as card reader, above the TLS/WebSocket
/// transport. Each text names what happened and what to do next; none carries a secret.
public enum RemoteIFDError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The phone sent a text frame that is not an IFD message eid accepts (the field it failed on).
    case malformedMessage(String)
    /// The phone answered a request with an error result.
    case failed(IFDMessageType, IFDResult)
    /// The phone sent IFDError instead of the answer to a request.
    case phoneError(IFDMessageType, IFDResult)
    /// No answer to a request within the time allowed.
    case timedOut(waitingFor: IFDMessageType, seconds: Double)
    /// The connection to the phone closed or broke.
    case connectionLost(phone: String)
    /// The phone refused IFDEstablishContext: another computer uses it, or it speaks another
    /// protocol version.
    case contextRefused(phone: String, IFDResult)
    /// No reader of that name on any paired phone (or the phone went away).
    case unknownReader(String)
    /// The pairing connection failed: most often a wrong pairing code (the TLS handshake with it as
    /// PSK fails), or the phone left pairing mode. The text is the transport's.
    case pairingRefused(address: String, String)
    /// The phone could not be reached or refused the TLS connection (the text is the transport's).
    case unreachable(address: String, String)
    /// The phone no longer knows this computer (it refused eid's certificate), or its own certificate is not the
    /// paired one: only pairing again helps (the text is the transport's).
    case notPaired(phone: String, String)

    public var description: String {
        switch self {
        case .malformedMessage(let why):
            return "the phone sent a message eid cannot read (\(why)); update AusweisApp on the phone"
        case .failed(let request, let result):
            return "the phone answered \(request.rawValue) with \(result.summary)"
        case .phoneError(let request, let result):
            return "the phone sent IFDError (\(result.summary)) instead of the answer to \(request.rawValue)"
        case .timedOut(let request, let seconds):
            return "the phone did not answer \(request.rawValue) within \(Self.format(seconds)) s; "
                + "check that it is in card reader mode and on the same network"
        case .connectionLost(let phone):
            return "the connection to the phone \(phone) was lost; open the card reader mode in AusweisApp "
                + "on the phone and try again"
        case .contextRefused(let phone, let result):
            return "the phone \(phone) refused the connection (\(result.summary)); another computer may be "
                + "using it as card reader: close that connection and try again"
        case .unknownReader(let name):
            return "no paired phone offers the reader \(name); run 'eid readers' to see the readers"
        case .pairingRefused(let address, let why):
            return "pairing with the phone at \(address) failed: \(why)"
        case .unreachable(_, let why):
            // The transport's sentence names the address and the next step.
            return why
        case .notPaired(let phone, let why):
            // The transport's sentence says to pair again.
            return "the phone '\(phone)' is no card reader for this computer any more: \(why)"
        }
    }

    static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
