import EIDCrypto
import Online
import SmartCard

/// The routes of eid-testserver's front end: the start page, TcTokens (with fresh session ids
/// and PSKs), the PAOS endpoint of each session (handed to the `PAOSSessionHandler`), the
/// refresh page and the last result. Transport free: `HTTPSFrontEnd` feeds it requests.
public final class FrontEndRoutes: Sendable {
    struct Session {
        var usesPSK: Bool
        var slow: Bool
        var opened: ContinuousClock.Instant
        /// `tls_changed_after_eac1`, until the answer with EAC1 has gone out.
        var changesCertificate = false
        /// `refresh_tls_not_in_description`, until the session's last answer has gone out.
        var changesRefreshCertificate = false
    }

    public let configuration: FrontEndConfiguration
    public let keys: PSKStore
    public let handler: any PAOSSessionHandler
    /// The other certificate of `tls_changed_after_eac1` (nil: the fault is refused).
    public let nextConnection: NextConnectionCertificate?
    /// Connections, TLS handshakes and requests so far (`GET /stats`).
    public let statistics = FrontEndStatistics()
    let sessions = Locked<[String: Session]>([:])
    private let originState: Locked<String>

    public init(
        configuration: FrontEndConfiguration, keys: PSKStore, handler: any PAOSSessionHandler,
        nextConnection: NextConnectionCertificate? = nil
    ) {
        self.configuration = configuration
        self.keys = keys
        self.handler = handler
        self.nextConnection = nextConnection
        originState = Locked(configuration.origin ?? "https://\(configuration.host):\(configuration.port)")
    }

    /// The origin in the URLs handed out, e.g. "https://127.0.0.1:18443".
    public var origin: String {
        get { originState.withLock { $0 } }
        set { originState.withLock { $0 = newValue } }
    }

    public func respond(to request: FrontEndRequest) -> FrontEndResponse {
        switch (request.method, request.path) {
        case ("GET", "/"), ("HEAD", "/"): return startPage()
        case ("GET", "/tctoken"): return tcToken(request)
        case ("GET", "/refresh"): return refreshPage(request)
        case ("GET", Self.refreshHopPath): return refreshHop(request)
        case ("GET", "/result"):
            return result(request)
        case ("GET", "/stats"):
            return FrontEndResponse(status: 200, contentType: "application/json", body: Array(statistics.json.utf8))
        case (_, let path) where path.hasPrefix("/paos/"):
            return paos(request, sessionID: String(path.dropFirst("/paos/".count)))
        case (_, "/"), (_, "/tctoken"), (_, "/refresh"), (_, "/result"), (_, "/stats"):
            var response = FrontEndResponse.text(405, "method not allowed")
            response.headers.append(("Allow", "GET"))
            return response
        default: return .text(404, "not found: \(request.path.prefix(100))")
        }
    }

    /// The activation URL the start page links to: the eID client on the user's machine, with
    /// this server's tcTokenURL.
    public var activationURL: String {
        "http://127.0.0.1:\(configuration.clientPort)/eID-Client?tcTokenURL=" + percentEncoded(origin + "/tctoken")
    }

    /// What an eService's login page looks like: one link that starts the eID client.
    private func startPage() -> FrontEndResponse {
        let tcTokenURL = origin + "/tctoken"
        let html = """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><title>eid-testserver: log in</title></head><body>
            <h1>eid-testserver</h1>
            <p>A test eService with its own eID server (TEST ONLY).</p>
            <p><a id="login" href="\(htmlEscaped(activationURL))">Log in with your ID card</a>
            (the eID client on this machine, port \(configuration.clientPort))</p>
            <p>TcToken URL: <code>\(htmlEscaped(tcTokenURL))</code> &middot; last result: <a href="/result">/result</a></p>
            </body></html>

            """
        return FrontEndResponse(status: 200, contentType: "text/html; charset=utf-8", body: Array(html.utf8))
    }

    private func tcToken(_ request: FrontEndRequest) -> FrontEndResponse {
        var names: [String] = []
        for value in request.query where value.0 == "fault" {
            names += value.1.split(separator: ",").map { String($0).trimmingSpaces() }.filter { !$0.isEmpty }
        }
        let transport = Set(names.compactMap(TransportFault.init(rawValue:)))
        if let redirect = redirectAnswer(transport, names: names) { return redirect }
        let sessionFaults = names.filter { TransportFault(rawValue: $0) == nil }
        let changesCertificate = transport.contains(.tlsChangedAfterEAC1)
        if changesCertificate || transport.contains(.refreshTLSNotInDescription) {
            guard let nextConnection else { return .text(400, "this server cannot change its TLS certificate") }
            do { try nextConnection.prepare(host: WebOrigin(url: origin)?.host ?? configuration.host) } catch {
                return .text(500, "no other TLS certificate")
            }
        }
        guard let id = try? SecureRandom.bytes(16).hexString.lowercased() else {
            return .text(500, "no random session id")
        }
        if transport.contains(.emptyTcToken) || transport.contains(.emptyTcTokenHTTPErrorAddress) {
            return emptyTcToken(id: id, plainErrorAddress: transport.contains(.emptyTcTokenHTTPErrorAddress))
        }
        if transport.contains(.blankTcToken) {
            return FrontEndResponse(status: 200, contentType: "text/xml; charset=utf-8", body: Array(" ".utf8))
        }
        if let refusal = admitSession() { return refusal }
        switch handler.openSession(id: id, faults: sessionFaults) {
        case .opened: break
        case .unknownFault: return .text(400, "unknown fault in: \(sessionFaults.joined(separator: ",").prefix(200))")
        case .busy(let seconds): return .busy(retryAfter: seconds)
        }
        let usesPSK =
            (configuration.pskForAll || transport.contains(.psk) || transport.contains(.pskWrongKey))
            && !transport.contains(.pskProtocolNoParameters)
        var psk: Secret?
        if usesPSK {
            guard var key = try? SecureRandom.bytes(32) else { return .text(500, "no random PSK") }
            keys.register(key, for: id)
            if transport.contains(.pskWrongKey) {
                // The client gets another key than the server expects: the handshake must fail.
                key = key.map { $0 ^ 0x5A }
            }
            psk = Secret(consuming: &key)
        }
        open(
            id,
            Session(
                usesPSK: usesPSK, slow: transport.contains(.slow), opened: .now, changesCertificate: changesCertificate,
                changesRefreshCertificate: transport.contains(.refreshTLSNotInDescription)))
        if transport.contains(.tls2NotResumed) { nextConnection?.armFreshSession() }
        var refresh = origin + "/refresh?session=" + id
        if transport.contains(.httpRefresh), refresh.hasPrefix("https://") {
            refresh = "http://" + refresh.dropFirst("https://".count)
        }
        var token = TcToken(
            serverAddress: origin + "/paos/" + id, sessionIdentifier: id, refreshAddress: refresh,
            communicationErrorAddress: origin + "/refresh?session=" + id + "&error=communication", psk: psk)
        if transport.contains(.pskProtocolNoParameters) { token.pathSecurityProtocol = TcToken.tlsPSKProtocol }
        applyAddressFaults(transport, to: &token, id: id)
        return FrontEndResponse(status: 200, contentType: "text/xml; charset=utf-8", body: token.encoded())
    }

    /// Forgets the sessions that no longer run (finished, timed out, or past their lifetime)
    /// with their PSKs; nil when a new one may open, else 503: a running session is never
    /// pushed out by new ones (a flood of TcToken requests must not end others' logins).
    private func admitSession() -> FrontEndResponse? {
        let full = sessions.withLock { sessions in
            let now = ContinuousClock.now
            for (id, session) in sessions
            where now - session.opened >= configuration.sessionLifetime || !handler.isRunning(sessionID: id) {
                sessions[id] = nil
                keys.remove(id)
            }
            return sessions.count >= configuration.maximumSessions
        }
        return full ? .busy(retryAfter: 1) : nil
    }

    private func open(_ id: String, _ session: Session) {
        sessions.withLock { $0[id] = session }
    }

    private func session(_ id: String) -> Session? {
        sessions.withLock { sessions in
            guard let session = sessions[id] else { return nil }
            guard ContinuousClock.now - session.opened < configuration.sessionLifetime else {
                sessions[id] = nil
                keys.remove(id)
                return nil
            }
            return session
        }
    }

    private func paos(_ request: FrontEndRequest, sessionID: String) -> FrontEndResponse {
        guard request.method == "POST" else {
            var response = FrontEndResponse.text(405, "the PAOS endpoint takes POST")
            response.headers.append(("Allow", "POST"))
            return response
        }
        guard let session = session(sessionID) else { return .text(404, "unknown or expired session") }
        let identity = request.tls?.pskIdentity
        if session.usesPSK ? identity != sessionID : identity != nil {
            return .text(403, session.usesPSK ? "this session needs its PSK channel" : "wrong PSK identity")
        }
        guard let paos = request.header("PAOS"), paos.contains("urn:liberty:") else {
            return .text(400, "missing PAOS header (ver=\"urn:liberty:paos:2006-08\")")
        }
        let reply = handler.respond(sessionID: sessionID, body: request.body)
        if reply.closeConnection {
            var response = FrontEndResponse.text(500, "")
            response.abort = true
            return response
        }
        var response =
            reply.status == 200
            ? FrontEndResponse(status: 200, contentType: "application/vnd.paos+xml; charset=utf-8", body: reply.body)
            : FrontEndResponse(status: reply.status, contentType: "text/plain; charset=utf-8", body: reply.body)
        if session.slow { response.delay = configuration.slowDelay }
        applyConnectionFaults(session, sessionID: sessionID, reply: reply, to: &response)
        return response
    }

    /// Whether a PAOS answer is DIDAuthenticate with EAC1InputType (the front end does not parse PAOS).
    static func carriesEAC1(_ body: [UInt8]) -> Bool {
        let needle = Array(EAC1InputType.typeName.utf8)
        guard body.count >= needle.count else { return false }
        return (0...(body.count - needle.count)).contains { start in
            body[start..<(start + needle.count)].elementsEqual(needle)
        }
    }

    /// The last finished session's result, or with `?session=ID` that session's (404 while it
    /// runs or when there is none).
    private func result(_ request: FrontEndRequest) -> FrontEndResponse {
        guard let id = request.parameter("session") else {
            return FrontEndResponse(status: 200, contentType: "application/json", body: handler.resultJSON())
        }
        guard let json = handler.resultJSON(sessionID: id) else {
            return FrontEndResponse(
                status: 404, contentType: "application/json",
                body: Array(#"{"ok":false,"error":"no finished session of that id"}"#.utf8))
        }
        return FrontEndResponse(status: 200, contentType: "application/json", body: json)
    }

    /// The page the client's refresh address shows: the result of its session (`?session=ID`,
    /// never another one's: CI jobs run side by side), or without a session the last one's.
    private func refreshPage(_ request: FrontEndRequest) -> FrontEndResponse {
        let major = request.parameter("ResultMajor") ?? "(none)"
        let minor = request.parameter("ResultMinor").map { " / " + $0 } ?? ""
        let json: [UInt8]
        if let id = request.parameter("session") {
            json =
                handler.resultJSON(sessionID: id)
                ?? Array(#"{"ok":false,"error":"no finished session of that id"}"#.utf8)
        } else {
            json = handler.resultJSON()
        }
        let result = String(decoding: json, as: UTF8.self)
        let who =
            handler.personName(sessionID: request.parameter("session")).map {
                "Logged in: <span id=\"person\">\(htmlEscaped($0))</span>"
            } ?? "Not logged in."
        let html = """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><title>eid-testserver: result</title></head><body>
            <h1>eID login: \(htmlEscaped(major + minor))</h1>
            <p id="who">\(who)</p>
            <pre>\(htmlEscaped(result))</pre>
            <p><a href="/">again</a></p>
            </body></html>

            """
        return FrontEndResponse(status: 200, contentType: "text/html; charset=utf-8", body: Array(html.utf8))
    }
}

/// `text` with the five characters that mean something in HTML markup or a quoted attribute
/// replaced by their character references.
func htmlEscaped(_ text: String) -> String {
    text.reduce(into: "") { out, c in out += htmlCharacterReferences[c] ?? String(c) }
}

private let htmlCharacterReferences: [Character: String] = [
    "<": "&lt;", ">": "&gt;", "&": "&amp;", "\"": "&quot;", "'": "&#39;",
]

func percentEncoded(_ text: String) -> String {
    let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
    var out = ""
    for byte in text.utf8 {
        if unreserved.contains(byte) {
            out.append(Character(Unicode.Scalar(byte)))
        } else {
            let hex = String(byte, radix: 16, uppercase: true)
            out += "%" + (hex.count == 1 ? "0" : "") + hex
        }
    }
    return out
}

extension String {
    func trimmingSpaces() -> String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
