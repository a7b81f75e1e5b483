/// A complete response with the TLS facts of the connection it came over.
public struct HTTPResponse: Sendable, Equatable {
    /// The address this response answers (a redirect hop's own address).
    public var url: String
    public var status: Int
    public var headers: [HTTPHeader]
    public var body: [UInt8]
    public var tls: TLSConnectionInfo
    /// For a redirect status (301, 302, 303, 307, 308): where it points, resolved against `url`.
    public var redirectURL: String?

    public var isRedirect: Bool { [301, 302, 303, 307, 308].contains(status) }

    /// The value of the last header called `name` (any case).
    public func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return headers.last { $0.name.lowercased() == lowered }?.value
    }
}
