import EIDTestServer
import SmartCard
import TestServerHTTPS

/// The eID server session library behind the HTTPS front end's PAOS endpoint: one
/// `EIDServerSessions` session per TcToken, all with the one `ServerPKI` made for the server's
/// origin and TLS certificate (so the certificate description's subject URL and CommCertificates
/// are the ones the client sees). It lives in a target of its own so that neither half depends on
/// the other: TestServerHTTPS knows no EAC, EIDTestServer no HTTP or TLS.
public final class EIDServerSessionHandler: PAOSSessionHandler {
    /// What `/result` shows before any session has finished.
    public static let noResultYet = #"{"ok":false,"error":"no session has finished yet"}"#

    public let sessions: EIDServerSessions
    private let tlsCertificate: [UInt8]
    private let pki = Locked<ServerPKI?>(nil)
    private let timeout: Double
    private let startTimeout: Double
    private let attributes: RequestedAttributes
    private let cvcaChain: CVCAChainStaging?
    private let transactionInfo: String?
    private let sweeper = Locked<Task<Void, Never>?>(nil)

    /// Sessions for a server whose TLS certificate is `tlsCertificate` (DER); a session may wait
    /// `timeout` seconds for the client's next message (`startTimeout` for StartPAOS); at most
    /// `capacity` sessions run at once (the front end's `maximumSessions`); every session asks for
    /// `attributes` (with `transactionInfo` in EAC1 when given) and, with `cvcaChain`, sends that
    /// CVCA link chain. Serves no session until
    /// `use(origin:)` or `use(pki:)`.
    public init(
        tlsCertificate: [UInt8], timeout: Double = 120, startTimeout: Double = 30, capacity: Int = 256,
        attributes: RequestedAttributes = .all, cvcaChain: CVCAChainStaging? = nil, transactionInfo: String? = nil
    ) {
        self.transactionInfo = transactionInfo
        self.tlsCertificate = tlsCertificate
        self.timeout = timeout
        self.startTimeout = startTimeout
        self.attributes = attributes
        self.cvcaChain = cvcaChain
        sessions = EIDServerSessions(capacity: capacity)
    }

    deinit { sweeper.withLock { $0?.cancel() } }

    /// Builds the server's PKI once, for `origin` (https://HOST:PORT, as the front end is bound):
    /// the project's built-in test PKI with a fresh DV and AT certificate; and starts sweeping
    /// stalled sessions every `sweepInterval`.
    public func use(origin: String, sweepInterval: Duration = .seconds(5)) throws {
        use(pki: try ServerPKI.testPKI(origin: origin, tlsCertificates: [tlsCertificate]), sweepInterval: sweepInterval)
    }

    /// Serves every session with `made` (a PKI of the server's own, `ServerPKIDirectory`), and
    /// starts sweeping stalled sessions every `sweepInterval`.
    public func use(pki made: ServerPKI, sweepInterval: Duration = .seconds(5)) {
        pki.withLock { $0 = made }
        let sessions = self.sessions
        sweeper.withLock { task in
            task?.cancel()
            task = Task.detached {
                while !Task.isCancelled {
                    try? await Task.sleep(for: sweepInterval)
                    sessions.expireStalled()
                }
            }
        }
    }

    public func openSession(id: String, faults: [String]) -> SessionOpening {
        guard let pki = pki.withLock({ $0 }),
            let parsed = try? ServerFaults(parsing: faults.joined(separator: ","))
        else { return .unknownFault }
        do {
            try sessions.create(
                SessionConfiguration(
                    sessionIdentifier: id, pki: pki, requiredRights: attributes.required,
                    optionalRights: attributes.optional, transactionInfo: transactionInfo, faults: parsed,
                    timeout: timeout, startTimeout: startTimeout,
                    cvcaChain: cvcaChain))
        } catch {
            if case .full(let seconds) = error { return .busy(retryAfter: seconds) }
            return .unknownFault
        }
        return .opened
    }

    public func isRunning(sessionID: String) -> Bool { sessions.isRunning(sessionID) }

    public func respond(sessionID: String, body: [UInt8]) -> PAOSHTTPReply {
        let reply = sessions.respond(toBody: body, sessionIdentifier: sessionID)
        guard let body = reply.body else { return .closeConnection }
        return PAOSHTTPReply(status: 200, body: body)
    }

    public func resultJSON() -> [UInt8] { Array((sessions.lastResult?.jsonText ?? Self.noResultYet).utf8) }

    public func resultJSON(sessionID: String) -> [UInt8]? {
        sessions.result(of: sessionID).map { Array($0.jsonText.utf8) }
    }

    public func personName(sessionID: String?) -> String? {
        let result = sessionID.map(sessions.result(of:)) ?? sessions.lastResult
        return result?.personName
    }
}
