/// The inbound user event `OpenSSLServerHandler` sends once the handshake is done: what the
/// HTTP layer needs to know about the channel.
public struct TLSEstablished: Sendable, Equatable {
    /// The PSK identity the client used (RSA-PSK), nil for a certificate-only handshake.
    public var pskIdentity: String?
    /// Whether the client resumed an earlier session (session id or ticket).
    public var resumed: Bool
    /// The negotiated suite, e.g. "RSA-PSK-AES256-GCM-SHA384".
    public var cipher: String
    /// The DER of the certificate the client presented, nil when it presented none.
    public var peerCertificateDER: [UInt8]? = nil
}
