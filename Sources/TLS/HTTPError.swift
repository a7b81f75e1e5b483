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
    /// The proxy variable (`HTTPProxy`) holds no URL libcurl can parse (the value is not repeated: it may
    /// hold a password).
    case invalidProxy(variable: String)
    /// The proxy variable names a scheme other than http.
    case unsupportedProxy(variable: String, scheme: String)
    /// The proxy's host name could not be resolved.
    case proxyNotFound(proxy: String)
    /// No connection through the proxy: libcurl's message says to which address (the proxy's, or the server's
    /// when `no_proxy` lists it).
    case proxyConnectionFailed(proxy: String, detail: String)
    /// The proxy answered the CONNECT to `host` with an HTTP status other than 2xx (403: not allowed, 407 or
    /// 401: credentials wanted or wrong, 5xx: it could not reach the server).
    case proxyRefused(proxy: String, host: String, status: Int)
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
        case .invalidProxy(let variable): return "\(variable) holds no proxy URL; give http://HOST:PORT"
        case .unsupportedProxy(let variable, let scheme):
            return "\(variable) names a proxy of scheme \(scheme); eid supports http proxies only (http://HOST:PORT)"
        case .proxyNotFound(let proxy):
            return "the proxy \(proxy) was not found; check https_proxy and the network"
        case .proxyConnectionFailed(let proxy, let detail):
            return "could not connect with the proxy \(proxy) in use (\(detail)); is the proxy running? "
                + "(hosts that no_proxy lists are reached directly)"
        case .proxyRefused(let proxy, let host, let status):
            let hint =
                status == 407 || status == 401
                ? "it wants credentials (http://USER:PASSWORD@HOST:PORT) or refused them"
                : status >= 500
                    ? "it could not reach the server" : "check the proxy's rules, or list the host in no_proxy"
            return "the proxy \(proxy) refused the connection to \(host) (HTTP \(status)): \(hint)"
        case .transferFailed(let code, let message): return "the HTTP request failed: \(message) (libcurl \(code))"
        case .libraryMissing(let problem): return problem
        }
    }
}
