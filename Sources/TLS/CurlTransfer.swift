import CCurl

/// libcurl's global state, set up once before the first handle (with the process-wide SSL_CTX ex_data index
/// the callbacks find their transfer by).
private let curlReady: Bool = {
    guard curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK else { return false }
    return transferStateIndex >= 0
}()

/// The SSL_CTX ex_data index of the `TransferState`, once per process (the shim keeps one per calling file).
let transferStateIndex: Int32 = eid_ssl_ctx_ex_index()

/// What one easy handle's callbacks share with it. Only the thread inside `curl_easy_perform` touches it.
final class TransferState {
    let profile: TLSProfile
    let configuration: HTTPConfiguration
    let cancellation: HTTPCancellation
    let requireResumption: Bool
    let preSharedKey: PreSharedKey?
    var handle: UnsafeMutableRawPointer?
    /// The server certificates still accepted (after EAC1); nil: any.
    var binding: ServerCertificateBinding?

    // One request.
    var host = ""
    var body = ResponseBody()
    var headers: [HTTPHeader] = []
    var headerBytes = 0
    var failure: HTTPError?

    // One handshake: reset when libcurl sets up a new SSL_CTX.
    var certificateFailure: TLSError?
    var receivedAlert: Int32?
    var preSharedKeySent = false
    /// The connection of the current request, inspected before it was sent.
    var connection: TLSConnectionInfo?

    static let maximumHeaderBytes = 64 << 10

    init(
        profile: TLSProfile, configuration: HTTPConfiguration, cancellation: HTTPCancellation,
        requireResumption: Bool, preSharedKey: PreSharedKey?
    ) {
        self.profile = profile
        self.configuration = configuration
        self.cancellation = cancellation
        self.requireResumption = requireResumption
        self.preSharedKey = preSharedKey
    }

    static func from(_ pointer: UnsafeMutableRawPointer?) -> TransferState? {
        pointer.map { Unmanaged<TransferState>.fromOpaque($0).takeUnretainedValue() }
    }

    static func from(ssl: OpaquePointer?) -> TransferState? {
        guard let ssl, let context = SSL_get_SSL_CTX(ssl) else { return nil }
        return from(SSL_CTX_get_ex_data(context, transferStateIndex))
    }
}

/// One libcurl easy handle: its connection (kept alive between requests), its TLS profile and its callbacks.
final class CurlTransfer {
    let state: TransferState
    let handle: UnsafeMutableRawPointer
    let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    /// - Parameter share: a CURLSH holding SSL sessions (nil: no session cache at all).
    init(state: TransferState, share: UnsafeMutableRawPointer?) throws(HTTPError) {
        guard curlReady, let handle = curl_easy_init() else {
            throw .transferFailed(code: Int(CURLE_FAILED_INIT.rawValue), message: "libcurl could not start")
        }
        self.state = state
        self.handle = handle
        state.handle = handle
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        let me = Unmanaged.passUnretained(state).toOpaque()
        let profile = state.profile
        let maximum = profile.maximumVersion == .tls12 ? CURL_SSLVERSION_MAX_TLSv1_2 : CURL_SSLVERSION_MAX_DEFAULT
        var ok = true
        func set(_ code: CURLcode) { ok = ok && code == CURLE_OK }
        set(eid_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1))
        set(eid_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer))
        set(eid_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "https"))
        set(Self.setProxy(state.configuration.proxy, on: handle))
        set(eid_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0))
        set(eid_curl_setopt_long(handle, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_1_1)))
        set(eid_curl_setopt_long(handle, CURLOPT_SSLVERSION, Int(CURL_SSLVERSION_TLSv1_2) | Int(maximum)))
        set(eid_curl_setopt_string(handle, CURLOPT_SSL_CIPHER_LIST, profile.cipherSuites))
        if profile.maximumVersion == .tls13 {
            set(eid_curl_setopt_string(handle, CURLOPT_TLS13_CIPHERS, profile.tls13CipherSuites))
        }
        if let groups = profile.groups { set(eid_curl_setopt_string(handle, CURLOPT_SSL_EC_CURVES, groups)) }
        // The certificate is judged by our verify callback (chain errors are not fatal); the host name too.
        set(eid_curl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 0))
        set(eid_curl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2))
        // No CA file or directory of libcurl's own: sslContextCallback gives every SSL_CTX the shared
        // VerificationRoots store (libcurl would parse the system bundle into each new SSL_CTX again).
        set(eid_curl_setopt_pointer(handle, CURLOPT_CAINFO, nil))
        set(eid_curl_setopt_pointer(handle, CURLOPT_CAPATH, nil))
        set(eid_curl_setopt_long(handle, CURLOPT_SSL_SESSIONID_CACHE, share == nil ? 0 : 1))
        if let share { set(eid_curl_setopt_pointer(handle, CURLOPT_SHARE, share)) }
        set(eid_curl_set_ssl_ctx_function(handle, sslContextCallback))
        set(eid_curl_setopt_pointer(handle, CURLOPT_SSL_CTX_DATA, me))
        set(eid_curl_set_prereq_function(handle, prerequestCallback))
        set(eid_curl_setopt_pointer(handle, CURLOPT_PREREQDATA, me))
        set(eid_curl_set_write_function(handle, writeCallback))
        set(eid_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, me))
        set(eid_curl_set_header_function(handle, headerCallback))
        set(eid_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, me))
        set(eid_curl_setopt_long(handle, CURLOPT_NOPROGRESS, 0))
        set(eid_curl_set_xferinfo_function(handle, progressCallback))
        set(eid_curl_setopt_pointer(handle, CURLOPT_XFERINFODATA, me))
        set(
            eid_curl_setopt_long(
                handle, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(state.configuration.connectTimeout)))
        set(eid_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, Self.milliseconds(state.configuration.totalTimeout)))
        guard ok else {
            curl_easy_cleanup(handle)
            errorBuffer.deallocate()
            throw .transferFailed(
                code: Int(CURLE_NOT_BUILT_IN.rawValue), message: "libcurl lacks an option this client needs")
        }
    }

    deinit {
        curl_easy_cleanup(handle)
        errorBuffer.deallocate()
    }

    /// Sends one request and reads its response; never follows a redirect.
    func perform(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        state.host = try Self.httpsHost(of: request.url)
        var headerList: UnsafeMutablePointer<curl_slist>? = nil
        defer { curl_slist_free_all(headerList) }
        var fields = request.headers
        if case .post = request.method { fields.append(HTTPHeader(name: "Expect", value: "")) }
        for header in fields {
            guard !header.name.isEmpty, !header.name.contains(where: { ":\r\n".contains($0) }),
                !header.value.contains(where: { "\r\n".contains($0) })
            else { throw .invalidHeader(name: header.name) }
            let line = header.value.isEmpty ? "\(header.name):" : "\(header.name): \(header.value)"
            guard let appended = curl_slist_append(headerList, line) else {
                throw .transferFailed(code: Int(CURLE_OUT_OF_MEMORY.rawValue), message: "out of memory")
            }
            headerList = appended
        }
        if state.cancellation.isCancelled { throw .cancelled }
        state.body = ResponseBody()
        state.headers = []
        state.headerBytes = 0
        state.failure = nil
        state.connection = nil
        errorBuffer[0] = 0
        // Runs before the list is freed: the handle never keeps a pointer to it.
        defer { _ = eid_curl_setopt_pointer(handle, CURLOPT_HTTPHEADER, nil) }
        var ok = eid_curl_setopt_string(handle, CURLOPT_URL, request.url) == CURLE_OK
        ok = ok && eid_curl_setopt_pointer(handle, CURLOPT_HTTPHEADER, headerList) == CURLE_OK
        // NOBODY stays set on the handle: every method sets it, HEAD on, the others off.
        ok = ok && eid_curl_setopt_long(handle, CURLOPT_NOBODY, request.method == .head ? 1 : 0) == CURLE_OK
        switch request.method {
        case .get:
            ok = ok && eid_curl_setopt_long(handle, CURLOPT_HTTPGET, 1) == CURLE_OK
        case .head:
            break
        case .post(let body):
            ok = ok && eid_curl_setopt_long(handle, CURLOPT_POST, 1) == CURLE_OK
            ok = ok && eid_curl_setopt_offset(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)) == CURLE_OK
            // COPYPOSTFIELDS copies, so the body need not outlive this call.
            let copied =
                body.isEmpty
                ? eid_curl_setopt_string(handle, CURLOPT_COPYPOSTFIELDS, "")
                : body.withUnsafeBytes {
                    eid_curl_setopt_pointer(
                        handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: $0.baseAddress))
                }
            ok = ok && copied == CURLE_OK
        }
        guard ok else { throw .invalidURL(request.url) }
        let code = curl_easy_perform(handle)
        guard code == CURLE_OK else { throw error(for: code, url: request.url) }
        guard let connection = state.connection else { throw .tls(.noServerCertificate) }
        var status = 0
        _ = eid_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        var location: UnsafeMutablePointer<CChar>? = nil
        _ = eid_curl_getinfo_string(handle, CURLINFO_REDIRECT_URL, &location)
        return HTTPResponse(
            url: request.url, status: status, headers: state.headers, body: state.body.take(), tls: connection,
            redirectURL: location.map { String(cString: $0) }
        )
    }

    /// The typed error for a failed transfer: what a callback recorded first, else libcurl's code.
    private func error(for code: CURLcode, url: String) -> HTTPError {
        if let failure = state.failure { return failure }
        if let certificate = state.certificateFailure { return .tls(certificate) }
        if state.cancellation.isCancelled { return .cancelled }
        let message = libcurlMessage(code)
        if let proxied = proxyError(for: code, message: message) { return proxied }
        switch code {
        case CURLE_URL_MALFORMAT: return .invalidURL(url)
        case CURLE_UNSUPPORTED_PROTOCOL: return .notHTTPS(url: url)
        case CURLE_COULDNT_RESOLVE_HOST: return .hostNotFound(host: state.host)
        case CURLE_COULDNT_CONNECT: return .connectionFailed(host: state.host)
        case CURLE_OPERATION_TIMEDOUT:
            var connected: curl_off_t = 0
            _ = eid_curl_getinfo_offset(handle, CURLINFO_APPCONNECT_TIME_T, &connected)
            return connected == 0 && state.connection == nil
                ? .connectTimedOut(seconds: Self.seconds(state.configuration.connectTimeout))
                : .timedOut(seconds: Self.seconds(state.configuration.totalTimeout))
        case CURLE_ABORTED_BY_CALLBACK: return .cancelled
        case CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE: return .connectionLost
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CIPHER:
            // decrypt_error, bad_record_mac, unknown_psk_identity: the server could not use our key.
            if state.preSharedKeySent, let alert = state.receivedAlert, [51, 20, 115].contains(alert) {
                return .tls(.preSharedKeyRejected)
            }
            if code == CURLE_PEER_FAILED_VERIFICATION { return .tls(.hostMismatch(host: state.host)) }
            return .tls(.handshakeFailed(reason: message))
        default: return .transferFailed(code: Int(code.rawValue), message: message)
        }
    }

    /// The host of an https URL, or the reason it is not one.
    static func httpsHost(of url: String) throws(HTTPError) -> String {
        guard let parsed = CurlURL(url) else { throw .invalidURL(url) }
        guard parsed.scheme == "https" else { throw .notHTTPS(url: url) }
        guard var host = parsed.host, !host.isEmpty else { throw .invalidURL(url) }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return host
    }

    static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(1, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
    }

    static func seconds(_ duration: Duration) -> Double { Double(milliseconds(duration)) / 1000 }
}

// MARK: - Callbacks (C function pointers; each finds its TransferState through its user pointer)

private func writeCallback(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ user: UnsafeMutableRawPointer?
) -> Int {
    guard let state = TransferState.from(user) else { return 0 }
    let length = size * count
    guard state.body.count + length <= state.configuration.maximumResponseBytes else {
        state.failure = .responseTooLarge(limit: state.configuration.maximumResponseBytes)
        return 0
    }
    if let data { state.body.append(UnsafeRawBufferPointer(start: data, count: length)) }
    return length
}

private func headerCallback(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ user: UnsafeMutableRawPointer?
) -> Int {
    guard let state = TransferState.from(user), let data else { return 0 }
    let length = size * count
    state.headerBytes += length
    guard state.headerBytes <= TransferState.maximumHeaderBytes else {
        state.failure = .responseTooLarge(limit: TransferState.maximumHeaderBytes)
        return 0
    }
    let bytes = UnsafeRawBufferPointer(start: data, count: length)
    let line = String(decoding: bytes, as: UTF8.self)[...].trimmingSuffix { $0.isNewline }
    if line.hasPrefix("HTTP/") {
        state.headers = []  // a new response (after 100 Continue, say)
    } else if let colon = line.firstIndex(of: ":") {
        let name = String(line[..<colon])
        let value = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
        state.headers.append(HTTPHeader(name: name, value: String(value.trimmingSuffix { $0 == " " || $0 == "\t" })))
    }
    return length
}

private func progressCallback(
    _ user: UnsafeMutableRawPointer?, _: curl_off_t, _: curl_off_t, _: curl_off_t, _: curl_off_t
) -> Int32 {
    guard let state = TransferState.from(user) else { return 1 }
    if state.cancellation.isCancelled {
        state.failure = .cancelled
        return 1
    }
    return 0
}

extension Substring {
    fileprivate func trimmingSuffix(while drop: (Character) -> Bool) -> Substring {
        var end = endIndex
        while end > startIndex, drop(self[index(before: end)]) { end = index(before: end) }
        return self[startIndex..<end]
    }
}
