import Glibc

/// The HTTP proxy eid's requests go through, named in the environment as curl names it. eid speaks only https,
/// so the variables are those libcurl reads for an https URL, the first one set and not empty: `https_proxy`,
/// `HTTPS_PROXY`, `all_proxy`, `ALL_PROXY` (never `http_proxy`); the hosts reached directly: `no_proxy`, else
/// `NO_PROXY`. eid hands both to libcurl itself (CURLOPT_PROXY, CURLOPT_NOPROXY, never libcurl's own look at
/// the environment), so it can name the proxy in its errors; libcurl matches `no_proxy` against each request's
/// host by curl's rules: `*` is every host; a name matches itself and the names under it (`example.org`:
/// `eid.example.org` too, a leading dot is ignored); an IP address matches as written or with a /bits prefix.
/// Loopback is no exception: `127.0.0.1` and `localhost` go through the proxy unless `no_proxy` lists them.
/// Every request goes through a tunnel (HTTP CONNECT), so TLS stays between eid and the server.
public struct HTTPProxy: Sendable, Equatable {
    /// The proxy's URL as given: may hold credentials (user:password@), so it goes to libcurl only.
    let url: String
    /// The environment variable it came from.
    public let variable: String
    /// The proxy as host:port, without credentials: what errors and logs name.
    public let address: String
    /// The hosts reached directly, as curl reads `no_proxy` (nil: none).
    public let noProxy: String?
    /// The credentials' text as it appears in the URL (nil: none), to scrub from libcurl's messages.
    private let userInfo: String?

    /// The variables libcurl reads for an https URL, in its order.
    public static let proxyVariables = ["https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"]
    public static let noProxyVariables = ["no_proxy", "NO_PROXY"]
    /// libcurl's port for a proxy URL without one.
    public static let defaultPort = 1080

    /// - Parameters:
    ///   - url: `[http://][user:password@]host[:port]`; only an http proxy (CONNECT) is supported.
    ///   - variable: where it came from, for errors.
    public init(url: String, variable: String = "https_proxy", noProxy: String? = nil) throws(HTTPError) {
        let withScheme = url.contains("://") ? url : "http://" + url
        // The scheme before libcurl's parser, which knows no scheme it has no protocol for (socks5).
        let scheme = withScheme.prefix { $0 != ":" }.lowercased()
        guard scheme == "http" else { throw .unsupportedProxy(variable: variable, scheme: scheme) }
        guard let parsed = CurlURL(withScheme) else { throw .invalidProxy(variable: variable) }
        guard let host = parsed.host, !host.isEmpty else { throw .invalidProxy(variable: variable) }
        self.url = withScheme
        self.variable = variable
        self.noProxy = noProxy
        address = host + ":" + (parsed.port ?? String(Self.defaultPort))
        userInfo = parsed.user.map { user in parsed.password.map { user + ":" + $0 } ?? user }
    }

    /// The proxy the environment names for https, or nil when none is set. `value` looks a variable up
    /// (the process environment by default).
    public static func fromEnvironment(_ value: (String) -> String? = Self.processEnvironment) throws(HTTPError)
        -> HTTPProxy?
    {
        func first(_ names: [String]) -> (name: String, value: String)? {
            for name in names {
                if let text = value(name), !text.isEmpty { return (name, text) }
            }
            return nil
        }
        guard let proxy = first(proxyVariables) else { return nil }
        return try HTTPProxy(url: proxy.value, variable: proxy.name, noProxy: first(noProxyVariables)?.value)
    }

    /// A variable of this process's environment.
    public static func processEnvironment(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }

    /// `text` (a message of libcurl's, which names hosts, not credentials) with the proxy's credentials, should
    /// they appear, replaced by `***`: the whole user:password and a password of 3 characters or more.
    func scrubbed(_ text: String) -> String {
        guard let userInfo, !userInfo.isEmpty else { return text }
        var result = text.replacing(userInfo, with: "***")
        if let colon = userInfo.firstIndex(of: ":"), userInfo[colon...].count > 3 {
            result = result.replacing(userInfo[userInfo.index(after: colon)...], with: "***")
        }
        return result
    }
}

/// Printed, dumped or reflected (as part of an `HTTPConfiguration`, say), a proxy shows its address and variable,
/// never its URL with the credentials.
extension HTTPProxy: CustomStringConvertible, CustomReflectable {
    public var description: String { "\(address) (\(variable))" }
    public var customMirror: Mirror {
        Mirror(self, children: ["address": address, "variable": variable, "noProxy": noProxy as Any])
    }
}
