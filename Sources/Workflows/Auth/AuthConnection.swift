import Online

/// What StateGetTcToken's network gives: the TcToken fetched from the tcTokenURL, the PAOS
/// transport to its eID server and the network of the refresh address's check. `OnlineClient`
/// gives them over TLS; tests give a server in process.
public struct AuthConnection {
    public var tcToken: TcToken
    public var transport: PAOSTransport
    /// The network of the refresh address's check (docs/protocol.md, "Refresh address check"); nil: the
    /// address is taken unchecked.
    public var refreshClient: RefreshAddressClient?

    public init(tcToken: TcToken, transport: PAOSTransport, refreshClient: RefreshAddressClient? = nil) {
        self.tcToken = tcToken
        self.transport = transport
        self.refreshClient = refreshClient
    }

    /// Why there is no connection: a FailureReason (a typed wrapper, so `Result` can hold it).
    public struct Failure: Error {
        public var reason: FailureReason
        /// Where the browser goes, when anywhere (a refused TcToken's CommunicationErrorAddress).
        public var url: RefreshTarget?

        public init(_ reason: FailureReason, url: RefreshTarget? = nil) {
            self.reason = reason
            self.url = url
        }
    }
}

/// The injected TcToken fetch (StateGetTcToken): the connection for a tcTokenURL, or why not.
public typealias TcTokenFetcher = (_ tcTokenURL: String) -> Result<AuthConnection, AuthConnection.Failure>
