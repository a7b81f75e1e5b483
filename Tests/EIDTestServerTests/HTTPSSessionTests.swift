import EIDTestServer
import EIDTestServerHTTPS
import Foundation
import Online
import SmartCard
import TLS
import TestServerHTTPS
import Testing

/// The whole eID exchange over real HTTPS on loopback: the front end with the session library
/// behind it (`EIDServerSessionHandler`, as `eid-testserver serve` runs them), Debian's curl
/// carrying each PAOS message of the test client, and the in-process software card.
@Suite(.serialized) struct HTTPSSessionTests {
    /// A running server on a free port, its certificate in a file curl trusts.
    final class Server: Sendable {
        static let credentials: TLSServerCredentials = try! TLSServerCredentials.generate(host: "127.0.0.1")
        let frontEnd: HTTPSFrontEnd
        let handler: EIDServerSessionHandler
        let directory: String
        let origin: String
        var certificateFile: String { directory + "/cert.pem" }

        init(capacity: Int = 256, startTimeout: Double = 30) throws {
            var configuration = FrontEndConfiguration()
            configuration.port = 0
            let certificate = try #require(Self.credentials.certificateDER)
            handler = EIDServerSessionHandler(
                tlsCertificate: certificate, startTimeout: startTimeout, capacity: capacity)
            frontEnd = HTTPSFrontEnd(
                configuration: configuration,
                tls: try TLSServerContext(
                    certificatePEM: Self.credentials.certificatePEM, keyPEM: Self.credentials.keyPEM),
                handler: handler)
            _ = try frontEnd.start()
            origin = frontEnd.routes.origin
            try handler.use(origin: origin)
            directory = NSTemporaryDirectory() + "eid-testserver-https-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try Self.credentials.certificatePEM.write(toFile: certificateFile, atomically: true, encoding: .utf8)
        }

        deinit {
            frontEnd.stop()
            try? FileManager.default.removeItem(atPath: directory)
        }

        /// curl against `url` (verifying the server's certificate) with `extra` options: the
        /// body, or nil when curl failed (e.g. the server closed the connection without answering).
        func curl(_ url: String, _ extra: [String] = [], input: [UInt8] = []) throws -> (code: Int, body: [UInt8])? {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            process.arguments =
                ["-sS", "--max-time", "20", "--cacert", certificateFile, "-o", "-", "-w", "\n%{http_code}"]
                + extra + [url]
            let stdin = Pipe()
            let stdout = Pipe()
            process.standardInput = stdin
            process.standardOutput = stdout
            process.standardError = FileHandle.nullDevice
            try process.run()
            try? stdin.fileHandleForWriting.write(contentsOf: Data(input))
            try? stdin.fileHandleForWriting.close()
            let out = [UInt8](stdout.fileHandleForReading.readDataToEndOfFile())
            process.waitUntilExit()
            guard process.terminationStatus == 0, let newline = out.lastIndex(of: UInt8(ascii: "\n")) else {
                return nil
            }
            return (Int(String(decoding: out[(newline + 1)...], as: UTF8.self)) ?? 0, Array(out[..<newline]))
        }

        /// A TcToken for `query`, the client's exchange over HTTPS POSTs to its ServerAddress, and then `/result`.
        func authenticate(_ query: String = "") throws -> (outcome: TestEIDClient.Outcome, result: String) {
            let (outcome, result, _) = try authenticateSession(query)
            return (outcome, result)
        }

        /// `authenticate`, also returning the session's identifier.
        func authenticateSession(_ query: String = "") throws -> (
            outcome: TestEIDClient.Outcome, result: String, session: String
        ) {
            let token = try #require(try curl(origin + "/tctoken" + query))
            #expect(token.code == 200)
            let tcToken = try TcToken.parse(token.body)
            var client = TestEIDClient(tlsCertificate: try #require(Self.credentials.certificateDER))
            client.tcTokenURL = origin + "/tctoken"
            let headers = [
                "-H", "Content-Type: application/vnd.paos+xml; charset=UTF-8",
                "-H", "Accept: text/html; application/vnd.paos+xml",
                "-H", "PAOS: ver=\"urn:liberty:paos:2006-08\"", "--data-binary", "@-",
            ]
            let outcome = client.run(sessionIdentifier: tcToken.sessionIdentifier) { body in
                guard let reply = try? curl(tcToken.serverAddress, headers, input: body), reply.code == 200 else {
                    return nil
                }
                return reply.body
            }
            let result = try #require(try curl(origin + "/result"))
            return (outcome, String(decoding: result.body, as: UTF8.self), tcToken.sessionIdentifier)
        }
    }

    @Test func clientAndCardAuthenticateOverHTTPSAndResultShowsTheData() throws {
        let server = try Server()
        #expect(
            String(decoding: try #require(try server.curl(server.origin + "/result")).body, as: UTF8.self)
                == EIDServerSessionHandler.noResultYet)
        let (outcome, result) = try server.authenticate()
        #expect(outcome.result == .ok)
        #expect(result.contains(#""ok":true"#))
        #expect(result.contains(#""GivenNames":"ERIKA""#))
    }

    @Test func pskSessionAuthenticatesOverTLS2WithTheTcTokensKey() throws {
        let server = try Server()
        let http = HTTPSession(configuration: HTTPConfiguration(trustAnchorsFile: server.certificateFile))
        defer { http.close() }
        let token = try http.send(HTTPRequest(url: server.origin + "/tctoken?fault=psk"), over: .web)
        let tcToken = try TcToken.parse(token.body)
        let key = try PreSharedKey(
            identity: tcToken.sessionIdentifier, hexKey: try #require(tcToken.psk).withBytes { $0.hexString })
        var client = TestEIDClient(tlsCertificate: try #require(Server.credentials.certificateDER))
        client.tcTokenURL = server.origin + "/tctoken"
        let headers = [
            HTTPHeader(name: "Content-Type", value: "application/vnd.paos+xml; charset=UTF-8"),
            HTTPHeader(name: "Accept", value: "text/html; application/vnd.paos+xml"),
            HTTPHeader(name: "PAOS", value: "ver=\"urn:liberty:paos:2006-08\""),
        ]
        let outcome = client.run(sessionIdentifier: tcToken.sessionIdentifier) { body in
            let request = HTTPRequest(url: tcToken.serverAddress, method: .post(body: body), headers: headers)
            guard let reply = try? http.send(request, over: .preSharedKey(key)), reply.status == 200 else { return nil }
            return reply.body
        }
        #expect(outcome.result == .ok)
        let result = String(decoding: try #require(try server.curl(server.origin + "/result")).body, as: UTF8.self)
        #expect(result.contains(#""ok":true"#) && result.contains(#""GivenNames":"ERIKA""#))
    }

    @Test func wrongTASignatureFaultEndsWithAnErrorResult() throws {
        let server = try Server()
        let (outcome, result) = try server.authenticate("?fault=wrong_ta_signature")
        #expect(outcome.result != .ok)
        #expect(result.contains(#""ok":false"#))
        #expect(!result.contains("ERIKA"))
    }

    @Test func aStalledSessionIsSweptAndResultShowsItsTimeout() async throws {
        let handler = EIDServerSessionHandler(tlsCertificate: [1, 2, 3], timeout: 0.2)
        try handler.use(origin: "https://127.0.0.1:18443", sweepInterval: .milliseconds(100))
        #expect(handler.openSession(id: "stalled", faults: []) == .opened)
        // The sweeper is a task on the cooperative pool, which other tests of this process may hold
        // with blocking waits for a while: 60 s only guards against a hang.
        let deadline = ContinuousClock.now + .seconds(60)
        while handler.sessions.result(of: "stalled") == nil, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        let result = String(decoding: handler.resultJSON(), as: UTF8.self)
        #expect(result.contains(#""ok":false"#))
        #expect(handler.sessions.result(of: "stalled")?.error == .timedOut)
    }

    @Test func unknownFaultIsRefusedAndServerWithoutOriginOpensNoSession() throws {
        let server = try Server()
        #expect(try server.curl(server.origin + "/tctoken?fault=no_such_fault")?.code == 400)
        let idle = EIDServerSessionHandler(tlsCertificate: [1, 2, 3])
        #expect(idle.openSession(id: "x", faults: []) == .unknownFault)
    }

    @Test func refreshPageShowsItsOwnSessionNeverTheLastOne() throws {
        let server = try Server()
        let (outcome, _, finished) = try server.authenticateSession()
        #expect(outcome.result == .ok)
        let running = try TcToken.parse(try #require(try server.curl(server.origin + "/tctoken")).body)
        // The running session's refresh page must not show the finished one's data.
        let other = try #require(try server.curl(running.refreshAddress + "&ResultMajor=ok"))
        #expect(other.code == 200)
        let otherPage = String(decoding: other.body, as: UTF8.self)
        #expect(!otherPage.contains("ERIKA"), "the refresh page of a running session shows another's result")
        #expect(otherPage.contains("no finished session of that id"))
        #expect(otherPage.contains("Not logged in."))
        let own = try #require(try server.curl(server.origin + "/refresh?session=" + finished + "&ResultMajor=ok"))
        let ownPage = String(decoding: own.body, as: UTF8.self)
        #expect(ownPage.contains(#"<p id="who">Logged in: <span id="person">ERIKA MUSTERMANN</span></p>"#))
        let result = try #require(try server.curl(server.origin + "/result?session=" + running.sessionIdentifier))
        #expect(result.code == 404)
    }

    @Test func aTcTokenFloodGets503WithRetryAfterUntilUnstartedSessionsTimeOut() throws {
        let server = try Server(capacity: 2, startTimeout: 1)
        let opened = ContinuousClock.now
        let first = try #require(try server.curl(server.origin + "/tctoken"))
        let second = try #require(try server.curl(server.origin + "/tctoken"))
        #expect(first.code == 200 && second.code == 200)
        let refused = try #require(try server.curl(server.origin + "/tctoken", ["-D", server.directory + "/head"]))
        #expect(refused.code == 503)
        let head = try String(contentsOfFile: server.directory + "/head", encoding: .utf8)
        #expect(head.lowercased().contains("retry-after: 1\r\n"), "\(head)")
        // The sessions nobody started time out (start timeout 1 s) and free their slots: asked again
        // until a slot is free (at most 30 s); a refused request opens no session.
        let deadline = ContinuousClock.now + .seconds(30)
        var code = try server.curl(server.origin + "/tctoken")?.code
        while code == 503 && ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.05)
            code = try server.curl(server.origin + "/tctoken")?.code
        }
        #expect(code == 200)
        #expect(ContinuousClock.now - opened >= .seconds(1), "freed by the start timeout, not at once")
    }
}
