import Foundation
import Online
import SmartCard
import TestServerHTTPS
import Testing

/// eid-testserver's HTTPS front end over real TLS on loopback, talked to by independent clients
/// (curl and openssl s_client from Debian).
@Suite(.serialized)
struct HTTPSFrontEndTests {
    @Test func startPageLinksToTheTcToken() throws {
        let server = try TestServerFixture()
        let (code, body) = try server.curl("/")
        #expect(code == 200)
        #expect(body.contains(">Log in with your ID card</a>"))
        #expect(
            body.contains(
                #"href="http://127.0.0.1:24727/eID-Client?tcTokenURL=https%3A%2F%2F127.0.0.1%3A\#(server.port)%2Ftctoken""#
            ))
    }

    /// `serve --client-port`: the link calls the eID client where it listens.
    @Test func startPageLinksToTheConfiguredClientPort() throws {
        let server = try TestServerFixture { $0.clientPort = 38555 }
        let (_, body) = try server.curl("/")
        let link = "http://127.0.0.1:38555/eID-Client?tcTokenURL=https%3A%2F%2F127.0.0.1%3A\(server.port)%2Ftctoken"
        #expect(body.contains("href=\"\(link)\""))
        #expect(server.server.routes.activationURL == link)
        // On the default port, eid's own parser reads the tcTokenURL back.
        let standard = try TestServerFixture().server.routes.activationURL
        #expect(try ActivationURL.tcTokenURL(from: standard).hasSuffix("/tctoken"))
    }

    @Test func tcTokenIsAcceptedByOnlinesParser() throws {
        let server = try TestServerFixture()
        let token = try server.tcToken()
        #expect(token.serverAddress == server.origin + "/paos/" + token.sessionIdentifier)
        #expect(token.sessionIdentifier.count == 32)
        #expect(token.refreshAddress.hasPrefix(server.origin + "/refresh?"))
        #expect(token.usableCommunicationErrorAddress != nil)
        #expect(token.psk == nil && token.pathSecurityProtocol == nil)
        // Attached server: the PAOS endpoint is same-origin with the tcToken URL.
        try token.checkAttachedServer(tcTokenURL: server.origin + "/tctoken")
        #expect(try server.tcToken().sessionIdentifier != token.sessionIdentifier)
    }

    @Test func pskFaultAndServeFlagGiveAFresh32BytePSK() throws {
        let server = try TestServerFixture()
        let token = try server.tcToken("?fault=psk")
        #expect(token.pathSecurityProtocol == TcToken.tlsPSKProtocol)
        #expect(token.psk?.count == 32)
        #expect(try server.tcToken("?fault=psk").psk?.hex != token.psk?.hex)
        let all = try TestServerFixture { $0.pskForAll = true }
        #expect(try all.tcToken().psk?.count == 32)
    }

    /// TR-03124-2 EID_CLIENT_A2_19's token: PathSecurity-Protocol TLS-PSK, empty parameters, no
    /// PSK, also under `--psk`; the session is attached, its PAOS endpoint answers over plain TLS.
    @Test("EID_CLIENT_A2_19: psk_protocol_no_parameters serves the PSK protocol without a PSK")
    func pskProtocolNoParametersFault() throws {
        for server in [try TestServerFixture(), try TestServerFixture { $0.pskForAll = true }] {
            let (code, body) = try server.curl("/tctoken?fault=psk,psk_protocol_no_parameters")
            #expect(code == 200)
            #expect(body.contains("<PathSecurity-Protocol>urn:ietf:rfc:4279</PathSecurity-Protocol>"))
            #expect(body.contains("<PathSecurity-Parameters/>") && !body.contains("<PSK"))
            let token = try TcToken.parse(Array(body.utf8))
            #expect(token.psk == nil && token.pathSecurityProtocol == TcToken.tlsPSKProtocol)
            let id = token.sessionIdentifier
            let paos = try server.sClient(
                [], request: TestServerFixture.paosRequest(session: id, body: TestServerFixture.startPAOS(id)))
            #expect(Bool(paos.stdout.contains("HTTP/1.1 200 OK")))
        }
    }

    @Test func rsaPSKChannelCarriesThePAOSExchange() throws {
        let server = try TestServerFixture()
        let token = try server.tcToken("?fault=psk")
        let key = try #require(token.psk?.hex)
        let id = token.sessionIdentifier
        let request = TestServerFixture.paosRequest(session: id, body: TestServerFixture.startPAOS(id))
        // The suite TR-03124-1 requires.
        let cbc = try server.sClient(
            ["-cipher", "RSA-PSK-AES256-CBC-SHA", "-psk_identity", id, "-psk", key], request: request)
        #expect(Bool(cbc.stdout.contains("Cipher is RSA-PSK-AES256-CBC-SHA")))
        #expect(Bool(cbc.stdout.contains("HTTP/1.1 200 OK")))
        #expect(Bool(cbc.stdout.contains("StartPAOSResponse")))
        // What AusweisApp offers: the server takes the AES-GCM one.
        let gcm = try server.sClient(
            [
                "-cipher", "RSA-PSK-AES256-GCM-SHA384:RSA-PSK-AES128-GCM-SHA256:RSA-PSK-AES256-CBC-SHA",
                "-psk_identity", id, "-psk", key,
            ], request: request)
        #expect(Bool(gcm.stdout.contains("Cipher is RSA-PSK-AES256-GCM-SHA384")))
        #expect(Bool(gcm.stdout.contains("HTTP/1.1 200 OK")))
    }

    @Test func wrongPSKIsRefusedInTheHandshake() throws {
        let server = try TestServerFixture()
        let token = try server.tcToken("?fault=psk_wrong_key")
        let id = token.sessionIdentifier
        let output = try server.sClient(
            ["-cipher", "RSA-PSK-AES256-CBC-SHA", "-psk_identity", id, "-psk", try #require(token.psk?.hex)],
            request: TestServerFixture.paosRequest(session: id, body: TestServerFixture.startPAOS(id)))
        #expect(Bool(!output.stdout.contains("HTTP/1.1")))
        #expect(Bool(output.stdout.contains("Cipher is (NONE)") || output.stderr.contains("alert")))
        // An unknown identity is refused as well.
        let unknown = try server.sClient(
            [
                "-cipher", "RSA-PSK-AES256-CBC-SHA", "-psk_identity", "nosuchsession", "-psk",
                String(repeating: "ab", count: 32),
            ],
            request: "GET / HTTP/1.0\r\n\r\n")
        #expect(Bool(!unknown.stdout.contains("HTTP/1.1")))
    }

    @Test func pskSessionNeedsItsPSKChannel() throws {
        let server = try TestServerFixture()
        let token = try server.tcToken("?fault=psk")
        let id = token.sessionIdentifier
        let (code, _) = try server.curl(
            "/paos/" + id, TestServerFixture.paosHeaders + ["--data-binary", "@-"])
        #expect(code == 403)
    }

    @Test(arguments: [false, true])
    func tls12SessionIsResumed(tickets: Bool) throws {
        let server = try TestServerFixture()
        let session = server.directory + "/session.pem"
        let extra = tickets ? [] : ["-no_ticket"]
        let first = try server.sClient(["-sess_out", session] + extra, request: "GET / HTTP/1.0\r\n\r\n")
        #expect(Bool(first.stdout.contains("New, TLSv1.2")))
        let second = try server.sClient(["-sess_in", session] + extra, request: "GET / HTTP/1.0\r\n\r\n")
        #expect(Bool(second.stdout.contains("Reused, TLSv1.2")))
        #expect(Bool(second.stdout.contains("200 OK")))
    }

    @Test func statsCountConnectionsHandshakesAndRequests() throws {
        let server = try TestServerFixture()
        // One connection (full handshake) with two requests on it, keep-alive.
        let (code, _) = try server.curl("/", [server.origin + "/"])
        #expect(code == 200)
        // Two s_client connections, the second resuming the first's session (full, then resumed).
        let session = server.directory + "/stats-session.pem"
        _ = try server.sClient(["-sess_out", session], request: "GET / HTTP/1.0\r\n\r\n")
        _ = try server.sClient(["-sess_in", session], request: "GET / HTTP/1.0\r\n\r\n")
        let (statsCode, stats) = try server.curl("/stats")
        #expect(statsCode == 200)
        // The /stats request counts itself: the fourth connection and handshake, the fifth request.
        #expect(stats.hasPrefix(#"{"connections":4,"tlsHandshakes":4,"tlsResumed":1,"httpRequests":5,"#))
        #expect(stats.hasSuffix(#","refusedConnections":0}"#))
        #expect(server.server.routes.statistics.requests == 5)
    }

    @Test func tls13IsOffered() throws {
        let server = try TestServerFixture()
        let (code, _) = try server.curl("/", ["--tlsv1.3"])
        #expect(code == 200)
    }

    /// The server's group preference wins over AusweisApp's client list (larger curves first): P-256 in TLS 1.2
    /// (server preference) and in TLS 1.3 (a HelloRetryRequest, since a secp384r1 key share is not accepted).
    @Test(arguments: ["-tls1_2", "-tls1_3"])
    func ephemeralKeyIsP256EvenWhenTheClientPrefersLargerCurves(version: String) throws {
        let server = try TestServerFixture()
        let groups = version == "-tls1_2" ? "brainpoolP512r1:brainpoolP384r1:secp384r1:prime256v1" : "secp384r1:P-256"
        let output = try server.run(
            [
                "/usr/bin/openssl", "s_client", "-connect", "127.0.0.1:\(server.port)", version, "-groups", groups,
                "-CAfile", server.certificateFile, "-ign_eof",
            ],
            input: Array("GET / HTTP/1.0\r\n\r\n".utf8), timeout: 20)
        #expect(Bool(output.stdout.contains("Server Temp Key: ECDH, prime256v1, 256 bits")))
        #expect(Bool(output.stdout.contains("200 OK")))
    }

    @Test func stubAnswersStartPAOSWithAnErrorAndResultShowsIt() throws {
        let server = try TestServerFixture()
        let id = try server.tcToken().sessionIdentifier
        let file = server.directory + "/start.xml"
        try Data(TestServerFixture.startPAOS(id)).write(to: URL(fileURLWithPath: file))
        let (code, body) = try server.curl(
            "/paos/" + id, TestServerFixture.paosHeaders + ["--data-binary", "@" + file])
        #expect(code == 200)
        let envelope = try PAOSEnvelope.parse(Array(body.utf8))
        guard case .startPAOSResponse(let response) = envelope.message else {
            Issue.record("not a StartPAOSResponse: \(envelope.message.kind)")
            return
        }
        #expect(response.result.major == .error)
        let (resultCode, result) = try server.curl("/result")
        #expect(resultCode == 200)
        #expect(result.contains("\"ok\":false") && result.contains(id))
        let (refreshCode, refresh) = try server.curl("/refresh?session=\(id)&ResultMajor=error")
        #expect(refreshCode == 200 && refresh.contains("<h1>eID login: error</h1>"))
    }

    @Test func badPAOSRequestsGetClearErrors() throws {
        let server = try TestServerFixture()
        let id = try server.tcToken().sessionIdentifier
        #expect(try server.curl("/paos/nosuchsession", TestServerFixture.paosHeaders + ["-d", "x"]).code == 404)
        #expect(try server.curl("/paos/" + id).code == 405)
        #expect(try server.curl("/paos/" + id, ["-d", "x"]).code == 400)  // no PAOS header
        #expect(try server.curl("/paos/" + id, TestServerFixture.paosHeaders + ["-d", "<broken"]).code == 400)
        #expect(try server.curl("/nowhere").code == 404)
        #expect(try server.curl("/tctoken?fault=no_such_fault").code == 400)
    }

    @Test func oversizedBodyIsRefusedWith413() throws {
        let server = try TestServerFixture { $0.maximumBodySize = 64 * 1024 }
        let id = try server.tcToken().sessionIdentifier
        let file = server.directory + "/big"
        try Data(repeating: 0x41, count: 200 * 1024).write(to: URL(fileURLWithPath: file))
        let (code, _) = try server.curl(
            "/paos/" + id, TestServerFixture.paosHeaders + ["--data-binary", "@" + file])
        #expect(code == 413)
        // Chunked, without a Content-Length: refused once the limit is crossed.
        let (chunked, _) = try server.curl(
            "/paos/" + id,
            TestServerFixture.paosHeaders + ["-H", "Transfer-Encoding: chunked", "--data-binary", "@" + file])
        #expect(chunked == 413)
        #expect(try server.curl("/").code == 200)
    }

    @Test func redirectFaultAnswers303ToTheRealTcTokenURL() throws {
        let server = try TestServerFixture()
        let output = try server.run(
            [
                "/usr/bin/curl", "-sS", "--max-time", "20", "--cacert", server.certificateFile, "-o", "/dev/null",
                "-w", "%{http_code} %{redirect_url}", server.origin + "/tctoken?fault=redirect,psk",
            ])
        #expect(output.stdout == "303 \(server.origin)/tctoken?fault=psk")
        let followed = try server.curl("/tctoken?fault=redirect,psk", ["-L"])
        #expect(followed.code == 200)
        #expect(try TcToken.parse(Array(followed.body.utf8)).psk != nil)
    }

    @Test func httpRefreshFaultGivesAPlainHTTPRefreshAddress() throws {
        let server = try TestServerFixture()
        let (code, body) = try server.curl("/tctoken?fault=http_refresh")
        #expect(code == 200)
        // Online's parser refuses it (docs/protocol.md, "TcToken validation", rule 5), as a conforming client must.
        #expect(body.contains("<RefreshAddress>http://127.0.0.1:\(server.port)/refresh?"))
        #expect(throws: TcTokenError.self) { try TcToken.parse(Array(body.utf8)) }
    }

    @Test func slowFaultDelaysThePAOSAnswer() throws {
        let server = try TestServerFixture { $0.slowDelay = .seconds(2) }
        let id = try server.tcToken("?fault=slow").sessionIdentifier
        let start = ContinuousClock.now
        let (code, _) = try server.curl("/paos/" + id, TestServerFixture.paosHeaders + ["-d", "<broken"])
        #expect(code == 400)
        #expect(ContinuousClock.now - start >= .seconds(2))
    }

    @Test func parallelClientsEachGetTheirOwnSession() async throws {
        let server = try TestServerFixture()
        let ids = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<24 { group.addTask { try server.tcToken().sessionIdentifier } }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(ids.count == 24 && Set(ids).count == 24)
    }

    @Test func brokenAndSilentClientsDoNotTakeTheServerDown() throws {
        let server = try TestServerFixture {
            $0.idleTimeout = .seconds(1)
            $0.requestTimeout = .seconds(2)
        }
        // Not TLS at all.
        let plain = try server.run(["/usr/bin/curl", "-sS", "--max-time", "10", "http://127.0.0.1:\(server.port)/"])
        #expect(plain.status != 0)
        // TLS, but not HTTP: the handshake completes (the server's certificate verified), then
        // the request is refused.
        let garbage = try server.sClient([], request: "\u{01}\u{02}GARBAGE\r\n\r\n")
        #expect(Bool(garbage.stdout.contains("Verify return code: 0 (ok)")), "\(garbage.stdout)")
        #expect(Bool(garbage.stdout.contains("New, TLSv1.2")), "\(garbage.stdout)")
        #expect(Bool(garbage.stdout.contains("HTTP/1.1 400 Bad Request")), "\(garbage.stdout)")
        #expect(Bool(!garbage.stdout.contains("200 OK")))
        // A client that connects and says nothing is closed after the idle timeout.
        let start = ContinuousClock.now
        let silent = try server.run(["/usr/bin/bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/\(server.port); cat <&3"])
        #expect(silent.status == 0)
        #expect(ContinuousClock.now - start < .seconds(10))
        // A client that sends a header slowly is closed at the request timeout.
        let slowStart = ContinuousClock.now
        let slow = try server.sClient(["-quiet"], request: "")
        #expect(Bool(slow.stderr.contains("verify return:1")), "\(slow.stderr)")
        #expect(ContinuousClock.now - slowStart < .seconds(10))
        #expect(try server.curl("/").code == 200)
    }

    @Test func aClientTricklingItsHeaderIsClosedAtTheRequestTimeout() throws {
        let server = try TestServerFixture {
            $0.idleTimeout = .seconds(3)
            $0.requestTimeout = .seconds(2)
        }
        // One header line a second for 20 s: never idle for 3 s, but never done within 2 s either.
        // (SIGPIPE may be ignored here, as the test runner ignores it: the writer stops on the
        // write error.) Without the request timeout the connection would last 20 s and more.
        let trickle =
            "printf 'GET / HTTP/1.1\\r\\nHost: x\\r\\n'; for i in $(seq 1 20); do sleep 1; printf 'X-$i: y\\r\\n' || exit; done"
        let start = ContinuousClock.now
        let output = try server.run([
            "/usr/bin/bash", "-c",
            "(\(trickle)) | openssl s_client -quiet -connect 127.0.0.1:\(server.port) -CAfile \(server.certificateFile)",
        ])
        #expect(ContinuousClock.now - start < .seconds(14))
        // s_client connected (the server's certificate verified) before the request was cut off.
        #expect(Bool(output.stderr.contains("verify return:1")), "\(output.stderr)")
        #expect(Bool(!output.stdout.contains("200 OK")))
        #expect(try server.curl("/").code == 200)
    }

    /// The refresh page says who logged in, HTML-escaped (a card's name is outside text).
    @Test func refreshPageShowsWhoLoggedInEscaped() throws {
        let server = try TestServerFixture(handler: NamedHandler(name: "<script>alert(1)</script> & O'Neil"))
        let (code, body) = try server.curl("/refresh?session=s&ResultMajor=ok")
        #expect(code == 200)
        #expect(
            body.contains(
                #"Logged in: <span id="person">&lt;script&gt;alert(1)&lt;/script&gt; &amp; O&#39;Neil</span>"#))
        #expect(!body.contains("<script>"))
        let (_, anonymous) = try TestServerFixture().curl("/refresh?ResultMajor=ok")
        #expect(anonymous.contains("Not logged in."))
    }

    /// A session handler whose every session was `name`'s.
    struct NamedHandler: PAOSSessionHandler {
        let name: String
        func openSession(id: String, faults: [String]) -> SessionOpening { .opened }
        func isRunning(sessionID: String) -> Bool { false }
        func respond(sessionID: String, body: [UInt8]) -> PAOSHTTPReply { .closeConnection }
        func resultJSON() -> [UInt8] { Array("{}".utf8) }
        func personName(sessionID: String?) -> String? { name }
    }

    /// A session handler that answers every PAOS POST by closing the connection.
    struct ClosingHandler: PAOSSessionHandler {
        func openSession(id: String, faults: [String]) -> SessionOpening { .opened }
        func isRunning(sessionID: String) -> Bool { true }
        func respond(sessionID: String, body: [UInt8]) -> PAOSHTTPReply { .closeConnection }
        func resultJSON() -> [UInt8] { Array("{}".utf8) }
    }

    /// A session handler that answers every PAOS POST with a stand-in for DIDAuthenticate EAC1.
    struct EAC1Handler: PAOSSessionHandler {
        func openSession(id: String, faults: [String]) -> SessionOpening { faults.isEmpty ? .opened : .unknownFault }
        func isRunning(sessionID: String) -> Bool { true }
        func respond(sessionID: String, body: [UInt8]) -> PAOSHTTPReply {
            PAOSHTTPReply(status: 200, body: Array(#"<DIDAuthenticate xsi:type="iso:EAC1InputType"/>"#.utf8))
        }
        func resultJSON() -> [UInt8] { Array("{}".utf8) }
    }

    /// `tls_changed_after_eac1`: the answer with EAC1 closes its connection, the next connection gets another
    /// certificate (curl, trusting only the server's own, refuses it), the one after the server's own again.
    @Test func tlsChangedAfterEAC1ServesAnotherCertificateOnTheNextConnection() throws {
        let server = try TestServerFixture(handler: EAC1Handler())
        let id = try server.tcToken("?fault=tls_changed_after_eac1").sessionIdentifier
        func post() throws -> TestServerFixture.Output {
            try server.run(
                ["/usr/bin/curl", "-sS", "-i", "--max-time", "20", "--cacert", server.certificateFile]
                    + TestServerFixture.paosHeaders + ["-d", "x", server.origin + "/paos/" + id])
        }
        let first = try post()
        #expect(first.stdout.contains("EAC1InputType") && first.stdout.lowercased().contains("connection: close"))
        let next = try server.run(
            ["/usr/bin/curl", "-sS", "--max-time", "20", "--cacert", server.certificateFile, server.origin + "/"])
        #expect(next.status == 60, "curl must refuse the other certificate: \(next.stderr)")
        #expect(try server.curl("/").code == 200)
        // Once per session: the next answer with EAC1 keeps its connection and certificate.
        let again = try post()
        #expect(again.status == 0 && !again.stdout.lowercased().contains("connection: close"))
        #expect(try server.curl("/").code == 200)
    }

    @Test func aHandlerCanCloseTheConnectionInsteadOfAnswering() throws {
        let server = try TestServerFixture(handler: ClosingHandler())
        let id = try server.tcToken().sessionIdentifier
        let output = try server.run(
            ["/usr/bin/curl", "-sS", "--max-time", "20", "--cacert", server.certificateFile]
                + TestServerFixture.paosHeaders + ["-d", "x", server.origin + "/paos/" + id])
        #expect(output.status == 52)  // curl: empty reply from server
        #expect(try server.curl("/").code == 200)
    }
}
