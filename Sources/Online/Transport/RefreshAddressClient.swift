/// The network StateCheckRefreshAddress needs (docs/protocol.md, "Refresh address check"): one request to an https
/// address over a TLS-1 style channel, redirects not followed, with the TLS server certificate
/// it came over. The executable's implementation is the HTTP session of the authentication.
public protocol RefreshAddressClient: AnyObject {
    /// `GET url` (`headOnly`: `HEAD url`, for an address only the TLS certificate of which is
    /// wanted). Every wait has a timeout.
    func visit(_ url: String, headOnly: Bool) throws(PAOSTransportError) -> RefreshAddressVisit
}

/// One answer on the way to the refresh URL.
public struct RefreshAddressVisit: Equatable, Sendable {
    public var status: Int
    /// For a redirect: where it points, resolved against the address visited.
    public var location: String?
    /// The DER encoding of the TLS server certificate it came over.
    public var serverCertificate: [UInt8]

    public init(status: Int, location: String?, serverCertificate: [UInt8]) {
        self.status = status
        self.location = location
        self.serverCertificate = serverCertificate
    }
}
