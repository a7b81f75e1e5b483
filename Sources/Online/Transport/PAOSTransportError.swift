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
    /// The host name could not be resolved.
    case hostNotFound(host: String)
    /// An address (the first, a redirect's, the ServerAddress) is not https.
    case notHTTPS(url: String)
    /// Redirects that loop, lack a Location, or exceed the limit.
    case badRedirect
    /// The answer is larger than allowed.
    case responseTooLarge(limit: Int)
    /// The TLS layer refused the server, with the TLS layer's sentence of why (no key material).
    case tlsRefused(reason: String)
    /// The user cancelled while a request was under way.
    case cancelled
    /// After EAC1, a connection presented a TLS certificate the certificate description does not list.
    case certificateNotInDescription
    /// The HTTP proxy (https_proxy) is misnamed, unreachable or refused the connection: its sentence of why
    /// (its address, never its credentials).
    case proxyFailed(reason: String)
    /// The HTTP client's libraries (libcurl, libssl) could not be loaded: what is missing, what to install.
    case clientLibraryMissing(String)

    public var description: String {
        switch self {
        case .connectionFailed: return "the connection to the server failed; is it running and reachable?"
        case .timedOut: return "the eID server did not answer in time"
        case .tlsFailed: return "the TLS channel to the eID server failed"
        case .httpStatus(let status): return "the server answered with HTTP status \(status)"
        case .hostNotFound(let host): return "the host \(host) was not found; check the address and the network"
        case .notHTTPS(let url): return "\(url) is not an https address; only https is allowed"
        case .badRedirect: return "the service's redirects loop or are broken"
        case .responseTooLarge(let limit): return "the server's answer is larger than \(limit) bytes"
        case .tlsRefused(let reason): return reason
        case .proxyFailed(let reason): return reason
        case .cancelled: return "cancelled"
        case .certificateNotInDescription:
            return "the eID server's TLS certificate on a new connection is not listed in the service's "
                + "certificate description; nothing was sent over it"
        case .clientLibraryMissing(let problem): return problem
        }
    }
}
