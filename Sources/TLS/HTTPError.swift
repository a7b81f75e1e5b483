/// Why an HTTP request over TLS did not produce a response.
public enum HTTPError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The address is not a URL libcurl can parse.
    case invalidURL(String)
    /// Only https is allowed, for the first address and every redirect.
    case notHTTPS(url: String)
    /// The host name could not be resolved.
    case hostNotFound(host: String)
    /// No TCP connection could be made.
    case connectionFailed(host: String)
    /// The connection was not made within the connect timeout.
    case connectTimedOut(seconds: Double)
    /// The whole exchange took longer than the total timeout.
    case timedOut(seconds: Double)
    /// The server closed the connection or it broke before the response was complete.
    case connectionLost
    /// The response body is larger than allowed.
    case responseTooLarge(limit: Int)
    /// More redirects than allowed.
    case tooManyRedirects(limit: Int)
    /// A redirect status without a Location header.
    case redirectWithoutLocation(status: Int)
    /// A request header with a line break or a colon in its name (it would smuggle headers).
    case invalidHeader(name: String)
    /// The TLS layer refused the connection.
    case tls(TLSError)
    /// The caller cancelled the request.
    case cancelled
    /// Any other libcurl failure (its code and its text).
    case transferFailed(code: Int, message: String)
    /// libcurl or libssl could not be loaded (they are loaded on first use): what is missing, what to install.
    case libraryMissing(String)

    public var description: String {
        switch self {
        case .invalidURL(let url): return "\(url) is not a valid URL"
        case .notHTTPS(let url): return "\(url) is not an https address; only https is allowed"
        case .hostNotFound(let host): return "the host \(host) was not found; check the address and the network"
        case .connectionFailed(let host): return "could not connect to \(host); is the server running?"
        case .connectTimedOut(let seconds): return "no connection within \(seconds) s; check the network"
        case .timedOut(let seconds): return "no complete response within \(seconds) s; try again later"
        case .connectionLost: return "the server closed the connection before the response was complete"
        case .responseTooLarge(let limit): return "the response is larger than \(limit) bytes and was dropped"
        case .tooManyRedirects(let limit): return "more than \(limit) redirects; the service's address loops"
        case .redirectWithoutLocation(let status): return "a redirect (HTTP \(status)) without a Location header"
        case .invalidHeader(let name): return "the request header \(name) is malformed"
        case .tls(let error): return error.description
        case .cancelled: return "cancelled"
        case .transferFailed(let code, let message): return "the HTTP request failed: \(message) (libcurl \(code))"
        case .libraryMissing(let problem): return problem
        }
    }
}
