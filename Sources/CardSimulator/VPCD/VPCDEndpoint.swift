/// Where vpcd listens: "HOST:PORT" (IPv6 as "[::1]:PORT").
public struct VPCDEndpoint: Equatable, Sendable, CustomStringConvertible {
    /// vpcd's first reader ("Virtual PCD 00 00") on a stock installation.
    public static let `default` = VPCDEndpoint(host: "127.0.0.1", port: 35963)

    public var host: String
    public var port: UInt16

    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// Parses "HOST:PORT"; nil without a host or with a port outside 1...65535.
    public init?(parsing text: String) {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, let port = UInt16(text[text.index(after: colon)...]), port > 0 else { return nil }
        self.init(host: host, port: port)
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
