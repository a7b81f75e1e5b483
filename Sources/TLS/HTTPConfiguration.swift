/// The bounds of every request an `HTTPSession` makes.
public struct HTTPConfiguration: Sendable {
    /// Time allowed for the TCP connection and the TLS handshake.
    public var connectTimeout: Duration
    /// Time allowed for one whole request (connect, send, receive).
    public var totalTimeout: Duration
    /// The largest response body accepted.
    public var maximumResponseBytes: Int
    /// How many redirects `fetch` follows before it gives up.
    public var maximumRedirects: Int
    /// A PEM file of extra trust anchors for the web-PKI check (the system's are always used). Chain errors
    /// are never fatal; they only clear `TLSConnectionInfo.chainTrusted`.
    public var trustAnchorsFile: String?
    /// The proxy every request goes through, unless its `noProxy` lists the host; nil: none, whatever the
    /// environment says (`HTTPProxy.fromEnvironment()` reads it as curl does).
    public var proxy: HTTPProxy?

    public init(
        connectTimeout: Duration = .seconds(15), totalTimeout: Duration = .seconds(60),
        maximumResponseBytes: Int = 4 << 20, maximumRedirects: Int = 8, trustAnchorsFile: String? = nil,
        proxy: HTTPProxy? = nil
    ) {
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.maximumResponseBytes = maximumResponseBytes
        self.maximumRedirects = maximumRedirects
        self.trustAnchorsFile = trustAnchorsFile
        self.proxy = proxy
    }
}
