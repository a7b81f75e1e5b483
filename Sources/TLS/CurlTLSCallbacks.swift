import CCurl

// The TLS callbacks of a `CurlTransfer` (C function pointers): each finds its `TransferState` through the
// SSL_CTX's ex data or its user pointer. They run on the thread inside `curl_easy_perform`.

/// Called for every new connection with its fresh SSL_CTX, before the handshake.
func sslContextCallback(
    _: UnsafeMutableRawPointer?, _ sslContext: UnsafeMutableRawPointer?, _ user: UnsafeMutableRawPointer?
) -> CURLcode {
    guard let state = TransferState.from(user), let sslContext else { return CURLE_SSL_CONNECT_ERROR }
    let context = OpaquePointer(sslContext)
    state.certificateFailure = nil
    state.receivedAlert = nil
    state.preSharedKeySent = false
    state.connection = nil
    guard SSL_CTX_set_ex_data(context, transferStateIndex, user) == 1,
        eid_ssl_ctx_set_sigalgs(context, state.profile.signatureAlgorithms) == 1
    else { return CURLE_SSL_CONNECT_ERROR }
    // The system's roots (and the caller's) only decide `chainTrusted`; verifyCallback keeps going on chain
    // errors. The host goes into the verification parameters, so a mismatch fails the handshake.
    // One store per process (VerificationRoots), not the system bundle parsed into every SSL_CTX.
    if let store = VerificationRoots.store(anchorsFile: state.configuration.trustAnchorsFile) {
        SSL_CTX_set1_cert_store(context, store)
    }
    ERR_clear_error()
    let parameters = SSL_CTX_get0_param(context)
    if X509_VERIFY_PARAM_set1_ip_asc(parameters, state.host) != 1 {
        guard X509_VERIFY_PARAM_set1_host(parameters, state.host, 0) == 1 else { return CURLE_SSL_CONNECT_ERROR }
    }
    eid_ssl_ctx_cleanse_plaintext(context)
    SSL_CTX_set_verify(context, SSL_VERIFY_PEER, verifyCallback)
    SSL_CTX_set_info_callback(context, infoCallback)
    if state.preSharedKey != nil { SSL_CTX_set_psk_client_callback(context, preSharedKeyCallback) }
    return CURLE_OK
}

/// Every certificate of the chain, with OpenSSL's verdict: the chain errors AusweisApp ignores pass, the
/// others end the handshake; after EAC1 the leaf must be one the binding accepts (checked in every handshake
/// that presents a certificate, so no request goes over a connection whose certificate was not checked).
func verifyCallback(_ preverified: Int32, _ store: OpaquePointer?) -> Int32 {
    guard let store,
        let ssl = X509_STORE_CTX_get_ex_data(store, SSL_get_ex_data_X509_STORE_CTX_idx()),
        let state = TransferState.from(ssl: OpaquePointer(ssl))
    else { return 0 }
    if preverified != 1,
        let fatal = TLSPeerCheck.fatalError(forVerificationError: X509_STORE_CTX_get_error(store), host: state.host)
    {
        if state.certificateFailure == nil { state.certificateFailure = fatal }
        return 0
    }
    if X509_STORE_CTX_get_error_depth(store) == 0, let binding = state.binding {
        guard let leaf = X509_STORE_CTX_get_current_cert(store), let der = TLSPeerCheck.der(of: leaf),
            binding.accepts(der)
        else {
            if state.certificateFailure == nil { state.certificateFailure = .certificateNotInDescription }
            return 0
        }
    }
    return 1
}

func infoCallback(_ ssl: OpaquePointer?, _ location: Int32, _ value: Int32) {
    let alert = eid_ssl_received_alert(location, value)
    guard alert >= 0, let state = TransferState.from(ssl: ssl) else { return }
    if state.receivedAlert == nil { state.receivedAlert = alert }
}

func preSharedKeyCallback(
    _ ssl: OpaquePointer?, _: UnsafePointer<CChar>?, _ identity: UnsafeMutablePointer<CChar>?,
    _ identityCapacity: UInt32, _ key: UnsafeMutablePointer<UInt8>?, _ keyCapacity: UInt32
) -> UInt32 {
    guard let state = TransferState.from(ssl: ssl), let preSharedKey = state.preSharedKey, let identity, let key
    else { return 0 }
    state.preSharedKeySent = true
    return UInt32(
        preSharedKey.copy(
            identityInto: identity, capacity: Int(identityCapacity), keyInto: key, capacity: Int(keyCapacity)))
}

/// After the connection is up (new or reused), before the request is sent: the key sizes, resumption and the
/// certificate facts of this connection (a redirect may come back to a kept-alive one); cancellation.
func prerequestCallback(
    _ user: UnsafeMutableRawPointer?, _: UnsafeMutablePointer<CChar>?, _: UnsafeMutablePointer<CChar>?,
    _: Int32, _: Int32
) -> Int32 {
    guard let state = TransferState.from(user) else { return Int32(CURL_PREREQFUNC_ABORT) }
    if state.cancellation.isCancelled {
        state.failure = .cancelled
        return Int32(CURL_PREREQFUNC_ABORT)
    }
    guard let handle = state.handle, let ssl = eid_curl_tls_ssl(handle) else {
        state.failure = .tls(.handshakeFailed(reason: "no TLS connection"))
        return Int32(CURL_PREREQFUNC_ABORT)
    }
    do {
        state.connection = try TLSPeerCheck.inspect(
            ssl, profile: state.profile, requireResumption: state.requireResumption, binding: state.binding)
        return Int32(CURL_PREREQFUNC_OK)
    } catch {
        state.connection = nil
        state.failure = .tls(error)
        return Int32(CURL_PREREQFUNC_ABORT)
    }
}
