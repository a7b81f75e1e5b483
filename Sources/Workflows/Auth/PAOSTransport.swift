/// The eID server's end of the PAOS exchange, as the authentication workflow sees it: one PAOS
/// message (its encoded SOAP envelope) goes out in an HTTP POST to the TcToken's ServerAddress,
/// the server's next message comes back in the response (AUTH-PROTOCOL.md §2). The TLS/HTTP
/// client implements it over TLS-2; tests play a server in process.
public protocol PAOSTransport: AnyObject {
    /// Sends one message body and returns the body of the answer. Every wait has a timeout.
    func exchange(_ body: [UInt8]) throws(PAOSTransportError) -> [UInt8]
    /// The DER encoding of every TLS server certificate seen so far (each TcToken redirect hop,
    /// the PAOS channel): each must hash into the certificate description's CommCertificates.
    var serverCertificates: [[UInt8]] { get }
}

/// Why the PAOS exchange could not go on. No case carries text from the server.
public enum PAOSTransportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The server could not be reached, or the connection broke.
    case connectionFailed
    /// No answer within the timeout.
    case timedOut
    /// The TLS channel could not be established or failed its checks.
    case tlsFailed
    /// The server answered with a non-2xx HTTP status.
    case httpStatus(Int)

    public var description: String {
        switch self {
        case .connectionFailed: return "the connection to the eID server failed"
        case .timedOut: return "the eID server did not answer in time"
        case .tlsFailed: return "the TLS channel to the eID server failed"
        case .httpStatus(let status): return "the eID server answered with HTTP status \(status)"
        }
    }
}
