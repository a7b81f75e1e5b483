/// Decides during the TLS handshake whether a client's certificate is let in (a phone as card
/// reader: any certificate while pairing, only paired ones afterwards). Called by OpenSSL's verify
/// callback on the connection's event loop; the certificates are self-signed, so OpenSSL's own
/// verdict does not count.
public protocol ClientCertificateJudge: AnyObject, Sendable {
    /// Whether the client presenting the certificate `der` may finish the handshake.
    func accepts(clientCertificateDER der: [UInt8]) -> Bool
}
