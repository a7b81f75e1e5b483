import CTestServerTLS

extension TLSServerContext {
    /// The PSK identity under which `init(ifdCertificatePEM:…)` keeps the pairing key: the phone's PSK
    /// callback ignores the identity the client sends (TR-03112-6: the key is the pairing code).
    public static let pairingIdentity = "ifd-pairing"

    /// The TLS 1.2 suites of the phone while pairing: RSA-PSK with the pairing code as key.
    public static let ifdPairingCipherSuites = [
        "RSA-PSK-AES256-GCM-SHA384", "RSA-PSK-AES128-GCM-SHA256", "RSA-PSK-AES256-CBC-SHA",
    ]
    /// The TLS 1.2 suites of a paired connection: ECDHE with the phone's RSA certificate.
    public static let ifdCipherSuites = [
        "ECDHE-RSA-AES256-GCM-SHA384", "ECDHE-RSA-AES128-GCM-SHA256", "ECDHE-RSA-AES256-SHA384",
        "ECDHE-RSA-AES128-SHA256",
    ]

    /// A phone's server context (TR-03112-6 IFD): TLS 1.2 only, a client certificate required and
    /// judged by `judge`; with `pairingKey` the RSA-PSK suites with that key (whatever PSK identity
    /// the client sends), without it the ECDHE-RSA suites. No session resumption. Throws
    /// `TestServerError.tlsConfiguration` when OpenSSL refuses the certificate or key.
    public convenience init(
        ifdCertificatePEM certificatePEM: String, keyPEM: String, pairingKey: [UInt8]?,
        judge: any ClientCertificateJudge
    ) throws(TestServerError) {
        let suites = pairingKey == nil ? Self.ifdCipherSuites : Self.ifdPairingCipherSuites
        guard let ctx = eid_tls_ifd_ctx_new(certificatePEM, keyPEM, suites.joined(separator: ":"), verifyCallback)
        else { throw .tlsConfiguration }
        let keys = PSKStore(capacity: 1)
        if let pairingKey {
            keys.register(pairingKey, for: Self.pairingIdentity)
            SSL_CTX_set_psk_server_callback(ctx, pairingPSKCallback)
        }
        self.init(handle: ctx, keys: keys, clientCertificates: judge)
    }
}

/// OpenSSL's verify callback: the leaf certificate goes to the context's judge; a certificate
/// above it (a chain the client sent) is let through, as only the leaf identifies the client.
private func verifyCallback(preverified: Int32, store: OpaquePointer?) -> Int32 {
    guard let store, X509_STORE_CTX_get_error_depth(store) == 0 else { return 1 }
    guard let ctx = eid_tls_verifying_ctx(store), let judgeRef = SSL_CTX_get_ex_data(ctx, 1) else { return 0 }
    var out: UnsafeMutablePointer<UInt8>?
    let n = eid_x509_der(X509_STORE_CTX_get_current_cert(store), &out)
    guard n > 0, let out else { return 0 }
    defer { eid_tls_openssl_free(out) }
    let judge = Unmanaged<AnyObject>.fromOpaque(judgeRef).takeUnretainedValue() as? any ClientCertificateJudge
    guard let judge, judge.accepts(clientCertificateDER: Array(UnsafeBufferPointer(start: out, count: n))) else {
        return 0
    }
    X509_STORE_CTX_set_error(store, X509_V_OK)
    return 1
}

/// OpenSSL's TLS 1.2 PSK server callback while pairing: the pairing code, whatever the identity.
private func pairingPSKCallback(
    ssl: OpaquePointer?, identity: UnsafePointer<CChar>?, psk: UnsafeMutablePointer<UInt8>?, maxLength: UInt32
) -> UInt32 {
    copyPSK(ssl: ssl, identity: TLSServerContext.pairingIdentity, into: psk, maxLength: maxLength)
}
