import Synchronization

/// What the front end has served since it started, for `GET /stats` (`make bench` counts the TLS
/// handshakes and HTTP round trips of one authentication from two snapshots): TCP connections
/// accepted, TLS handshakes completed (full or resumed by session id or ticket) and HTTP
/// requests received whole (a body refused with 413 is not one). Counted where they happen (the channel initializer, `OpenSSLServerHandler`,
/// `FrontEndHTTPHandler`); a `/stats` request counts itself. Atomics, shared by every event loop.
public final class FrontEndStatistics: Sendable {
    private let connectionCount = Atomic<Int>(0)
    private let openCount = Atomic<Int>(0)
    private let refusedCount = Atomic<Int>(0)
    private let fullHandshakeCount = Atomic<Int>(0)
    private let resumedHandshakeCount = Atomic<Int>(0)
    private let requestCount = Atomic<Int>(0)

    public init() {}

    /// Counts an accepted connection; false (and counted as refused) when `limit` are open already.
    func connectionOpened(limit: Int) -> Bool {
        connectionCount.add(1, ordering: .relaxed)
        guard openCount.add(1, ordering: .relaxed).newValue <= limit else {
            openCount.subtract(1, ordering: .relaxed)
            refusedCount.add(1, ordering: .relaxed)
            return false
        }
        return true
    }
    func connectionClosed() { openCount.subtract(1, ordering: .relaxed) }
    func handshakeCompleted(resumed: Bool) {
        if resumed {
            resumedHandshakeCount.add(1, ordering: .relaxed)
        } else {
            fullHandshakeCount.add(1, ordering: .relaxed)
        }
    }
    func requestReceived() { requestCount.add(1, ordering: .relaxed) }

    public var connections: Int { connectionCount.load(ordering: .relaxed) }
    public var fullHandshakes: Int { fullHandshakeCount.load(ordering: .relaxed) }
    public var resumedHandshakes: Int { resumedHandshakeCount.load(ordering: .relaxed) }
    public var requests: Int { requestCount.load(ordering: .relaxed) }
    /// Connections open now, and those closed at once because `maximumConnections` were open.
    public var openConnections: Int { openCount.load(ordering: .relaxed) }
    public var refusedConnections: Int { refusedCount.load(ordering: .relaxed) }

    /// `{"connections":N,"tlsHandshakes":N,"tlsResumed":N,"httpRequests":N,"openConnections":N,
    /// "refusedConnections":N}`; tlsHandshakes counts every completed handshake, tlsResumed those
    /// that resumed a session; connections counts refused ones too.
    public var json: String {
        let resumed = resumedHandshakes
        return #"{"connections":\#(connections),"tlsHandshakes":\#(fullHandshakes + resumed),"#
            + #""tlsResumed":\#(resumed),"httpRequests":\#(requests),"openConnections":\#(openConnections),"#
            + #""refusedConnections":\#(refusedConnections)}"#
    }
}
