import CCurl

/// The client's HTTP over TLS for one authentication: TLS-1 (the TcToken fetch, redirects followed one hop at a
/// time) and TLS-2 (PAOS, with the TcToken's pre-shared key or resuming TLS-1's session). Each channel keeps
/// its connection alive between requests. Calls block the calling thread, each bounded by the configuration's
/// timeouts; `cancellation` stops them from another thread. Not for use from two threads at once. libcurl is loaded
/// on the first request (`HTTPError.libraryMissing` when it cannot be).
public final class HTTPSession {
    /// Which TLS channel a request goes over.
    public enum Channel {
        /// TLS-1 / TLS-1-2: `TLSProfile.web`; its sessions are kept for `resumingWeb`.
        case web
        /// TLS-2 with the TcToken's pre-shared key: `TLSProfile.preSharedKey`.
        case preSharedKey(PreSharedKey)
        /// TLS-2 without a pre-shared key: `TLSProfile.web` on a new connection that must resume a session
        /// of `web` (else `TLSError.sessionNotResumed`, before the request is sent).
        case resumingWeb
    }

    public let configuration: HTTPConfiguration
    public let cancellation: HTTPCancellation
    /// The SSL session cache `web` and `resumingWeb` share (a CURLSH).
    private let sessions: UnsafeMutableRawPointer?
    private var web: CurlTransfer?
    private var resuming: CurlTransfer?
    private var preShared: CurlTransfer?
    /// The server certificates still accepted, on every channel (nil: any).
    private var binding: ServerCertificateBinding?

    public init(
        configuration: HTTPConfiguration = HTTPConfiguration(), cancellation: HTTPCancellation = HTTPCancellation()
    ) {
        self.configuration = configuration
        self.cancellation = cancellation
        sessions = SessionCache.make()
    }

    deinit {
        close()
        SessionCache.free(sessions)
    }

    /// GET `url` over TLS-1, following redirects (301, 302, 303, 307, 308) one hop at a time, each https and
    /// each with its server certificate kept, at most `configuration.maximumRedirects` of them.
    public func fetch(_ url: String, headers: [HTTPHeader] = []) throws(HTTPError) -> RedirectChain {
        var hops: [HTTPResponse] = []
        var next = url
        while true {
            let response = try send(HTTPRequest(url: next, headers: headers), over: .web)
            hops.append(response)
            guard response.isRedirect else { return RedirectChain(hops: hops) }
            guard let location = response.redirectURL else {
                throw .redirectWithoutLocation(status: response.status)
            }
            guard hops.count <= configuration.maximumRedirects else {
                throw .tooManyRedirects(limit: configuration.maximumRedirects)
            }
            _ = try CurlTransfer.httpsHost(of: location)
            next = location
        }
    }

    /// One request over `channel`; a redirect status is returned, not followed.
    public func send(_ request: HTTPRequest, over channel: Channel) throws(HTTPError) -> HTTPResponse {
        try transfer(for: channel).perform(request)
    }

    /// From now on, on every channel, each connection's server certificate must be one `binding` accepts: checked
    /// in every handshake and before each request, so a reconnect or a kept-alive connection with another
    /// certificate fails with `TLSError.certificateNotInDescription` before anything is sent on it.
    public func bind(_ binding: ServerCertificateBinding) {
        self.binding = binding
        for transfer in [web, resuming, preShared] { transfer?.state.binding = binding }
    }

    /// Closes every connection and wipes the pre-shared key of the TLS-2 channel.
    public func close() {
        preShared?.state.preSharedKey?.wipe()
        web = nil
        resuming = nil
        preShared = nil
    }

    private func transfer(for channel: Channel) throws(HTTPError) -> CurlTransfer {
        switch channel {
        case .web:
            if let web { return web }
            let made = try make(.web, resumption: false, key: nil, share: sessions)
            web = made
            return made
        case .resumingWeb:
            if let resuming { return resuming }
            let made = try make(.web, resumption: true, key: nil, share: sessions)
            resuming = made
            return made
        case .preSharedKey(let key):
            if let preShared, preShared.state.preSharedKey === key { return preShared }
            preShared?.state.preSharedKey?.wipe()
            let made = try make(.preSharedKey, resumption: false, key: key, share: nil)
            preShared = made
            return made
        }
    }

    private func make(_ profile: TLSProfile, resumption: Bool, key: PreSharedKey?, share: UnsafeMutableRawPointer?)
        throws(HTTPError) -> CurlTransfer
    {
        let state = TransferState(
            profile: profile, configuration: configuration, cancellation: cancellation,
            requireResumption: resumption, preSharedKey: key)
        state.binding = binding
        if let problem = eid_curl_load() { throw .libraryMissing(String(cString: problem)) }
        return try CurlTransfer(state: state, share: share)
    }
}
