import Online
import TLS

/// The refresh address's check (docs/protocol.md, "Refresh address check") on the same HTTP session, over a
/// TLS-1 style channel (never the TLS-2 channel with the pre-shared key), each request on its own, redirects
/// not followed.
extension HTTPPAOSTransport: RefreshAddressClient {
    public func visit(_ url: String, headOnly: Bool) throws(PAOSTransportError) -> RefreshAddressVisit {
        let response: HTTPResponse
        do {
            response = try session.send(
                HTTPRequest(
                    url: url, method: headOnly ? .head : .get,
                    headers: [HTTPHeader(name: "User-Agent", value: TcTokenFetch.userAgent)]),
                over: .web)
        } catch {
            throw PAOSTransportError(error)
        }
        return RefreshAddressVisit(
            status: response.status, location: response.redirectURL, serverCertificate: response.tls.serverCertificate)
    }
}
