import CCurl

/// The checks the eID client makes on a server's TLS connection (AusweisApp's `TlsChecker`): the chain errors
/// AusweisApp ignores are only reported (`chainTrusted`), every other verification error is fatal; the
/// server's certificate key and ephemeral key must meet `MinimumKeySizes`; after EAC1 the certificate must be
/// one the `ServerCertificateBinding` accepts.
enum TLSPeerCheck {
    /// The verification errors AusweisApp ignores (`TlsChecker::getFatalErrors`, through Qt's mapping of
    /// OpenSSL's codes to `QSslError`): those that only say the chain does not lead to a trusted root, and
    /// PathLengthExceeded and InvalidPurpose. Every other code is fatal there (InvalidCaCertificate, and any
    /// code Qt maps to UnspecifiedError: a chain too long, an unusable issuer key, ...). Stricter than
    /// AusweisApp: UNABLE_TO_DECRYPT_CERT_SIGNATURE (which OpenSSL 3 no longer reports) and
    /// UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY stay fatal, as a signature that cannot be checked.
    static let chainErrors: Set<Int32> = [
        X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY,
        X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE, X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT,
        X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN, X509_V_ERR_CERT_UNTRUSTED, X509_V_ERR_PATH_LENGTH_EXCEEDED,
        X509_V_ERR_INVALID_PURPOSE,
    ]

    /// The verdict on one verification error: nil when it is tolerated, else the fatal error.
    static func fatalError(forVerificationError error: Int32, host: String) -> TLSError? {
        if chainErrors.contains(error) { return nil }
        switch error {
        case X509_V_ERR_CERT_HAS_EXPIRED: return .certificateExpired
        case X509_V_ERR_CERT_NOT_YET_VALID: return .certificateNotYetValid
        case X509_V_ERR_CERT_SIGNATURE_FAILURE, X509_V_ERR_UNABLE_TO_DECRYPT_CERT_SIGNATURE:
            return .certificateSignatureInvalid
        case X509_V_ERR_HOSTNAME_MISMATCH, X509_V_ERR_IP_ADDRESS_MISMATCH: return .hostMismatch(host: host)
        case X509_V_ERR_INVALID_CA, X509_V_ERR_KEYUSAGE_NO_CERTSIGN: return .invalidCA
        default: return .certificateRejected(reason: String(cString: X509_verify_cert_error_string(Int(error))))
        }
    }

    /// The DER encoding of `certificate`, or nil when OpenSSL cannot encode it.
    static func der(of certificate: OpaquePointer) -> [UInt8]? {
        let length = eid_x509_der(certificate, nil)
        guard length > 0 else { return nil }
        let der = [UInt8](unsafeUninitializedCapacity: Int(length)) { buffer, count in
            count = Int(max(0, eid_x509_der(certificate, buffer.baseAddress)))
        }
        return der.count == Int(length) ? der : nil
    }

    /// Inspects a live connection before the request goes out.
    /// `binding`: the certificates still accepted (after EAC1); a resumed session presents no certificate in
    /// its handshake, so its certificate is checked here.
    static func inspect(
        _ ssl: OpaquePointer, profile: TLSProfile, requireResumption: Bool, binding: ServerCertificateBinding?
    ) throws(TLSError) -> TLSConnectionInfo {
        guard let certificate = SSL_get0_peer_certificate(ssl), let key = X509_get0_pubkey(certificate) else {
            throw .noServerCertificate
        }
        let serverKeyBits = try check(key, ephemeral: false, minimum: profile.minimumKeySizes)
        var ephemeralKeyBits: Int? = nil
        if let ephemeral = eid_ssl_peer_tmp_key(ssl) {
            defer { EVP_PKEY_free(ephemeral) }
            ephemeralKeyBits = try check(ephemeral, ephemeral: true, minimum: profile.minimumKeySizes)
        }
        let resumed = SSL_session_reused(ssl) == 1
        if requireResumption && !resumed { throw .sessionNotResumed }
        guard let der = der(of: certificate) else { throw .noServerCertificate }
        if let binding, !binding.accepts(der) { throw .certificateNotInDescription }
        return TLSConnectionInfo(
            protocolVersion: String(cString: SSL_get_version(ssl)),
            cipherSuite: SSL_get_current_cipher(ssl).map { String(cString: SSL_CIPHER_get_name($0)) } ?? "",
            serverCertificate: der,
            chainTrusted: SSL_get_verify_result(ssl) == X509_V_OK,
            sessionResumed: resumed,
            serverKeyBits: serverKeyBits,
            ephemeralKeyBits: ephemeralKeyBits
        )
    }

    /// The key's size in bits, or the error when it is below the minimum for its algorithm.
    static func check(_ key: OpaquePointer, ephemeral: Bool, minimum: MinimumKeySizes) throws(TLSError) -> Int {
        let bits = Int(EVP_PKEY_get_bits(key))
        let (algorithm, required): (String, Int)
        switch EVP_PKEY_get_base_id(key) {
        case EVP_PKEY_RSA, EVP_PKEY_RSA_PSS: (algorithm, required) = ("RSA", minimum.rsa)
        case EVP_PKEY_DSA: (algorithm, required) = ("DSA", minimum.dsa)
        case EVP_PKEY_DH, EVP_PKEY_DHX: (algorithm, required) = ("DH", minimum.dh)
        case EVP_PKEY_EC, EVP_PKEY_X25519, EVP_PKEY_X448, EVP_PKEY_ED25519, EVP_PKEY_ED448:
            (algorithm, required) = ("EC", minimum.ec)
        default:
            let name = EVP_PKEY_get0_type_name(key).map { String(cString: $0) } ?? "unknown"
            throw .certificateRejected(reason: "unsupported key type \(name)")
        }
        if bits < required {
            throw ephemeral
                ? .ephemeralKeyTooSmall(algorithm: algorithm, bits: bits, minimum: required)
                : .serverKeyTooSmall(algorithm: algorithm, bits: bits, minimum: required)
        }
        return bits
    }
}
