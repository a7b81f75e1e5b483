import FoundationEssentials

/// The origin of a URL (RFC 6454): scheme, host and port, with the scheme's default port filled
/// in, so that `https://h` and `https://h:443/x` are the same origin (docs/protocol.md, "Same origin").
public struct WebOrigin: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var scheme: String
    public var host: String
    public var port: Int

    public init(scheme: String, host: String, port: Int) {
        self.scheme = scheme.lowercased()
        self.host = host.lowercased()
        self.port = port
    }

    /// The origin of an absolute http or https URL; nil for anything else (no host, another
    /// scheme, user information, an unparsable URL).
    public init?(url: String) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty, components.user == nil, components.password == nil
        else { return nil }
        let port: Int
        switch scheme {
        case "https": port = components.port ?? 443
        case "http": port = components.port ?? 80
        default: return nil
        }
        guard (1...65535).contains(port) else { return nil }
        self.init(scheme: scheme, host: host, port: port)
    }

    /// The same-origin rule of TR-03124 (docs/protocol.md, "Same origin"): scheme, host and port all equal.
    public static func isSameOrigin(_ a: String, _ b: String) -> Bool {
        guard let x = WebOrigin(url: a), let y = WebOrigin(url: b) else { return false }
        return x == y
    }

    public var isHTTPS: Bool { scheme == "https" }

    public var description: String { "\(scheme)://\(host):\(port)" }
}
