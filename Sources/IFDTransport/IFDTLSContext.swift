import CLibSSL
import SmartCard

/// The OpenSSL client context (SSL_CTX) of one connection to a phone: TLS 1.2 only, the suites, groups and
/// signature algorithms of the mode (`IFDTLSSecurity`), eid's certificate and key, no CA check of the
/// phone's certificate (`IFDPeerCheck` pins it after the handshake), and for pairing the PSK client callback.
/// The callbacks find this object through the SSL_CTX's ex data; they and the handler run on the channel's
/// event loop only. The pairing code is copied into a `Secret` of its own, handed to OpenSSL once and wiped
/// when the handshake ends (`handshakeEnded`) or with this object.
final class IFDTLSContext: @unchecked Sendable {
    // @unchecked: made on the caller's thread, then used only on the channel's event loop (callbacks
    // included); `handle` is configured in init and only read afterwards.
    let handle: OpaquePointer
    let security: IFDTLSSecurity
    private let preSharedKey: Secret?
    /// The alert the phone sent, if it sent one (the info callback).
    private(set) var receivedAlert: Int?

    init(security: IFDTLSSecurity, identity: IFDClientIdentity) throws(IFDTransportError) {
        if let problem = eid_libssl_load() { throw .libraryMissing(String(cString: problem)) }
        if case .pairing(let code) = security {
            guard code.isDigits(count: 4) else { throw .invalidPairingCode }
            var bytes = code.copyBytes()
            preSharedKey = Secret(consuming: &bytes)
        } else {
            preSharedKey = nil
        }
        guard let method = TLS_client_method(), let ctx = SSL_CTX_new(method) else {
            ERR_clear_error()
            throw .tlsConfiguration("SSL_CTX_new")
        }
        handle = ctx
        self.security = security
        try configure(identity: identity)
        SSL_CTX_set_ex_data(ctx, eid_ssl_ctx_ex_index(), Unmanaged.passUnretained(self).toOpaque())
        SSL_CTX_set_info_callback(ctx, ifdInfoCallback)
        if preSharedKey != nil { SSL_CTX_set_psk_client_callback(ctx, ifdPreSharedKeyCallback) }
    }

    deinit {
        preSharedKey?.wipe()
        SSL_CTX_free(handle)
    }

    private func configure(identity: IFDClientIdentity) throws(IFDTransportError) {
        defer { ERR_clear_error() }
        guard eid_ssl_ctx_set_tls12_only(handle) == 1 else { throw .tlsConfiguration("SSL_CTX_set_min_proto_version") }
        guard SSL_CTX_set_cipher_list(handle, security.cipherSuites.joined(separator: ":")) == 1 else {
            throw .tlsConfiguration("SSL_CTX_set_cipher_list")
        }
        guard eid_ssl_ctx_set_sigalgs(handle, IFDTLSSecurity.signatureAlgorithms.joined(separator: ":")) == 1 else {
            throw .tlsConfiguration("SSL_CTX_set1_sigalgs_list")
        }
        if !security.isPairing {
            // OpenSSL 3.0 knows the brainpool groups for TLS 1.2 only, which is all this is.
            guard eid_ssl_ctx_set_groups(handle, IFDTLSSecurity.groups.joined(separator: ":")) == 1 else {
                throw .tlsConfiguration("SSL_CTX_set1_groups_list")
            }
        }
        try useIdentity(identity)
        // The phone's certificate is self-signed: no chain to check, it is pinned (paired) or returned (pairing).
        SSL_CTX_set_verify(handle, SSL_VERIFY_NONE, nil)
        eid_ssl_ctx_cleanse_plaintext(handle)
        eid_ssl_ctx_set_ifd_client_options(handle)
    }

    private func useIdentity(_ identity: IFDClientIdentity) throws(IFDTransportError) {
        var pkcs8: [UInt8]
        do { pkcs8 = try identity.key.pkcs8() } catch { throw .tlsConfiguration("i2d_PKCS8_PRIV_KEY_INFO") }
        defer { Secret.zero(&pkcs8) }
        let key = pkcs8.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var pointer = buffer.baseAddress
            return d2i_AutoPrivateKey(nil, &pointer, buffer.count)
        }
        let certificate = identity.certificateDER.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var pointer = buffer.baseAddress
            return d2i_X509(nil, &pointer, buffer.count)
        }
        defer {
            EVP_PKEY_free(key)
            X509_free(certificate)
        }
        guard let key, let certificate, SSL_CTX_use_certificate(handle, certificate) == 1,
            SSL_CTX_use_PrivateKey(handle, key) == 1, SSL_CTX_check_private_key(handle) == 1
        else { throw .tlsConfiguration("SSL_CTX_use_PrivateKey") }
    }

    /// The handshake is over (done or failed): the pairing code is no longer needed.
    func handshakeEnded() { preSharedKey?.wipe() }

    fileprivate func noteAlert(_ alert: Int32) {
        if receivedAlert == nil { receivedAlert = Int(alert) }
    }

    /// Copies the pairing code into OpenSSL's buffer, the identity empty (as Qt's QSslSocket leaves it for
    /// AusweisApp); 0 (no key: the handshake fails) when it does not fit or was wiped.
    fileprivate func writePreSharedKey(
        identity: UnsafeMutablePointer<CChar>, identityCapacity: Int, key: UnsafeMutablePointer<UInt8>,
        keyCapacity: Int
    ) -> UInt32 {
        guard let preSharedKey, preSharedKey.count > 0, identityCapacity >= 1, preSharedKey.count <= keyCapacity
        else { return 0 }
        identity[0] = 0
        return preSharedKey.withBytes { bytes in
            bytes.withUnsafeBufferPointer { key.update(from: $0.baseAddress!, count: $0.count) }
            return UInt32(bytes.count)
        }
    }

    fileprivate static func from(ssl: OpaquePointer?) -> IFDTLSContext? {
        guard let ssl, let ctx = SSL_get_SSL_CTX(ssl), let data = SSL_CTX_get_ex_data(ctx, eid_ssl_ctx_ex_index())
        else { return nil }
        return Unmanaged<IFDTLSContext>.fromOpaque(data).takeUnretainedValue()
    }
}

private func ifdInfoCallback(_ ssl: OpaquePointer?, _ location: Int32, _ value: Int32) {
    let alert = eid_ssl_received_alert(location, value)
    guard alert >= 0, let context = IFDTLSContext.from(ssl: ssl) else { return }
    context.noteAlert(alert)
}

private func ifdPreSharedKeyCallback(
    _ ssl: OpaquePointer?, _: UnsafePointer<CChar>?, _ identity: UnsafeMutablePointer<CChar>?,
    _ identityCapacity: UInt32, _ key: UnsafeMutablePointer<UInt8>?, _ keyCapacity: UInt32
) -> UInt32 {
    guard let context = IFDTLSContext.from(ssl: ssl), let identity, let key else { return 0 }
    return context.writePreSharedKey(
        identity: identity, identityCapacity: Int(identityCapacity), key: key, keyCapacity: Int(keyCapacity))
}
