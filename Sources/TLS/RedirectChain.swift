/// The responses of a GET that followed redirects one hop at a time: every hop's response (with its server
/// certificate), the last one being the answer.
public struct RedirectChain: Sendable, Equatable {
    public var hops: [HTTPResponse]

    /// The final response (not a redirect).
    public var response: HTTPResponse { hops[hops.count - 1] }

    /// Every server certificate seen, DER, one per hop in order (TR-03124-1: each is checked against
    /// CommCertificates after EAC1).
    public var serverCertificates: [[UInt8]] { hops.map(\.tls.serverCertificate) }
}
