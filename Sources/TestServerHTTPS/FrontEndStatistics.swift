import Synchronization

/// What the front end has served since it started, for `GET /stats` (`make bench` counts the TLS
/// handshakes and HTTP round trips of one authentication from two snapshots): TCP connections
/// accepted, TLS handshakes completed (full or resumed by session id or ticket) and HTTP
/// requests received whole (a body refused with 413 is not one). Counted where they happen (the channel initializer, `OpenSSLServerHandler`,
/// `FrontEndHTTPHandler`); a `/stats` request counts itself. Atomics, shared by every event loop.
public final class FrontEndStatistics: Sendable {
    private let connectionCount = Atomic<Int>(0)
    private let fullHandshakeCount = Atomic<Int>(0)
    private let resumedHandshakeCount = Atomic<Int>(0)
    private let requestCount = Atomic<Int>(0)

    public init() {}

    func connectionAccepted() { connectionCount.add(1, ordering: .relaxed) }
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

    /// `{"connections":N,"tlsHandshakes":N,"tlsResumed":N,"httpRequests":N}`; tlsHandshakes
    /// counts every completed handshake, tlsResumed those that resumed a session.
    public var json: String {
        let resumed = resumedHandshakes
        return #"{"connections":\#(connections),"tlsHandshakes":\#(fullHandshakes + resumed),"#
            + #""tlsResumed":\#(resumed),"httpRequests":\#(requests)}"#
    }
}
