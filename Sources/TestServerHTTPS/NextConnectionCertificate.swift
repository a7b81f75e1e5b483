import CTestServerTLS
import SmartCard

/// The other TLS certificate of the fault `tls_changed_after_eac1`: made once, on the first TcToken with the
/// fault (RSA 3072, self-signed like the server's own, for the same host: valid for it, but not in any
/// certificate description), and served on the next TLS connection the server accepts after `arm()` (one
/// connection per `arm()`, whichever client makes it), in a session context of its own so that the
/// connection cannot resume an earlier session and must show the certificate; for `tls2_not_resumed` the
/// session context alone. TEST ONLY.
public final class NextConnectionCertificate: Sendable {
    private struct State {
        var credentials: TLSServerCredentials?
        var pending = 0
        var pendingFreshSessions = 0
    }
    private let state = Locked(State())

    public init() {}

    /// Makes the other certificate for `host`, unless there is one.
    public func prepare(host: String) throws(TestServerError) {
        if state.withLock({ $0.credentials != nil }) { return }
        // Made outside the lock: RSA key generation takes a while, and connections ask meanwhile.
        let made = try TLSServerCredentials.generate(host: host, days: 2)
        state.withLock { if $0.credentials == nil { $0.credentials = made } }
    }

    /// The next TLS connection accepted gets the other certificate.
    public func arm() { state.withLock { $0.pending += 1 } }

    /// The next TLS connection accepted keeps the certificate but gets a session context of its own
    /// (`tls2_not_resumed`): it cannot resume a session of another connection.
    public func armFreshSession() { state.withLock { $0.pendingFreshSessions += 1 } }

    /// The DER of the other certificate (nil before `prepare`).
    public var certificateDER: [UInt8]? { state.withLock { $0.credentials?.certificateDER } }

    /// Before a new connection's handshake: serves the other certificate on `ssl` when one is pending.
    func apply(to ssl: OpaquePointer) {
        let fresh: Bool = state.withLock { state in
            guard state.pendingFreshSessions > 0 else { return false }
            state.pendingFreshSessions -= 1
            return true
        }
        if fresh {
            let context = Array("eid-testserver-fresh-session".utf8)
            if SSL_set_session_id_context(ssl, context, UInt32(context.count)) != 1 { ERR_clear_error() }
        }
        let credentials: TLSServerCredentials? = state.withLock { state in
            guard state.pending > 0, let credentials = state.credentials else { return nil }
            state.pending -= 1
            return credentials
        }
        guard let credentials else { return }
        if eid_tls_use_other_certificate(ssl, credentials.certificatePEM, credentials.keyPEM) != 1 { ERR_clear_error() }
    }
}
