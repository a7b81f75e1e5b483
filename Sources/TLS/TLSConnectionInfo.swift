/// What the TLS layer learned about the connection a response came over.
public struct TLSConnectionInfo: Sendable, Equatable {
    /// "TLSv1.2" or "TLSv1.3".
    public var protocolVersion: String
    /// The OpenSSL name of the negotiated suite, e.g. "RSA-PSK-AES256-GCM-SHA384".
    public var cipherSuite: String
    /// The server's leaf certificate, DER: what TR-03124-1 hashes into CommCertificates.
    public var serverCertificate: [UInt8]
    /// False when the chain does not lead to a trusted web-PKI root; not fatal (the certificate is bound to the
    /// certificate description after EAC1 instead).
    public var chainTrusted: Bool
    /// The handshake resumed an earlier session (TLS-2 after TLS-1 without a pre-shared key).
    public var sessionResumed: Bool
    /// The size in bits of the key in the server's certificate.
    public var serverKeyBits: Int
    /// The size in bits of the server's ephemeral (EC)DH key; nil without one (RSA-PSK, or a resumed session).
    public var ephemeralKeyBits: Int?
}
