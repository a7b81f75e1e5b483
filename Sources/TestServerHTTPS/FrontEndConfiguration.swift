import Online

/// How eid-testserver's front end listens and what it allows.
public struct FrontEndConfiguration: Sendable {
    /// Where to listen; the default is loopback only.
    public var host = "127.0.0.1"
    /// 0: any free port (tests).
    public var port = 18443
    /// The origin in URLs the server hands out (TcToken, links); nil: https://host:port as bound.
    public var origin: String?
    /// The port of the eID client on the user's machine that the start page's login link calls
    /// (`http://127.0.0.1:PORT/eID-Client?tcTokenURL=…`; `serve --client-port`).
    public var clientPort = ActivationURL.localPort
    /// Every session uses the PSK channel (`serve --psk`), not only those with `?fault=psk`.
    public var pskForAll = false
    /// The largest request body; larger ones are refused with 413 (a PAOS message is far smaller).
    public var maximumBodySize = 512 * 1024
    /// A connection that sends nothing for this long is closed.
    public var idleTimeout: Duration = .seconds(30)
    /// A request must arrive completely within this time from the connection's start or the
    /// previous answer, else the connection is closed (slow clients).
    public var requestTimeout: Duration = .seconds(60)
    /// How long the `slow` fault delays each PAOS answer.
    public var slowDelay: Duration = .seconds(3)
    /// Connections open at once at most; one more is closed as soon as it is accepted.
    public var maximumConnections = 512
    /// Sessions running at once at most (`serve --max-sessions`): a TcToken request beyond them
    /// gets 503 with Retry-After; how long a session may be used at most.
    public var maximumSessions = 256
    public var sessionLifetime: Duration = .seconds(15 * 60)
    /// Where one line per request goes, naming the address it came from (through an HTTP proxy the proxy's),
    /// whether its connection resumed a TLS session, its method and its path without the query
    /// (`serve --log-requests`); nil: nowhere.
    public var requestLog: (@Sendable (String) -> Void)?

    public init() {}
}
