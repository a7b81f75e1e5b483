/// The eID server's end of the PAOS exchange, as the authentication workflow sees it: one PAOS
/// message (its encoded SOAP envelope) goes out in an HTTP POST to the TcToken's ServerAddress,
/// the server's next message comes back in the response (docs/protocol.md, "PAOS binding"). The TLS/HTTP
/// client implements it over TLS-2; tests play a server in process.
public protocol PAOSTransport: AnyObject {
    /// Sends one message body and returns the body of the answer. Every wait has a timeout.
    func exchange(_ body: [UInt8]) throws(PAOSTransportError) -> [UInt8]
    /// The DER encoding of every TLS server certificate seen so far (each TcToken redirect hop,
    /// the PAOS channel): each must hash into the certificate description's CommCertificates.
    var serverCertificates: [[UInt8]] { get }
    /// After EAC1's checks: from now on every TLS connection (reconnects, resumed sessions and the refresh
    /// address's included) must present a server certificate `accepts` takes, checked in its handshake before
    /// anything is sent on it; a refused one fails with `PAOSTransportError.certificateNotInDescription`.
    func bindServerCertificates(_ accepts: @escaping @Sendable ([UInt8]) -> Bool)
}
