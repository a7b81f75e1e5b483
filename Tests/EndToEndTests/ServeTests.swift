import Foundation
import Glibc
import SmartCard
import Testing

/// `eid serve` as browsers and SDK clients meet it: the built binary on a free port
/// (`--port 0 --port-file`, `--simulator`: the in-process card, no pcscd), a real
/// `eid-testserver serve`, curl as the browser and Tests/Support/serve_sdk_client.py (Python's
/// websockets) as the SDK client.
@Suite(
    .serialized,
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: E2E.binDir.appendingPathComponent("eid-testserver").path),
        "needs the built eid-testserver binary: run `make test`"))
struct ServeTests {
    /// No pcscd: the simulator's card only.
    static let noPCSCD = ["PCSCLITE_CSOCK_NAME": "/nonexistent/pcscd.comm"]

    func serve(_ arguments: [String] = ["--simulator"]) throws -> ServeProcess {
        try ServeProcess(arguments, environment: Self.noPCSCD)
    }

    static func activation(_ serve: ServeProcess, tcTokenURL: String) -> String {
        let query = tcTokenURL.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        return "\(serve.origin)/eID-Client?tcTokenURL=\(query)"
    }

    /// The headers of every answer, and the CORS pair.
    func expectCommonHeaders(_ answer: HTTPExchange, cors: Bool) {
        #expect(answer.headers["server"]?.hasPrefix("eid/") == true)
        #expect(answer.headers["date"]?.hasSuffix(" GMT") == true)
        #expect(answer.headers["connection"] == "close")
        #expect(answer.headers["cache-control"] == "no-cache, no-store")
        #expect(answer.headers["pragma"] == "no-cache")
        #expect(answer.headers["access-control-allow-origin"] == (cors ? "*" : nil))
        #expect(answer.headers["access-control-allow-private-network"] == (cors ? "true" : nil))
    }

    @Test("EID_CLIENT_A1_03, EID_CLIENT_A1_05: the HTTP answers (Status; no tcTokenURL: 404)")
    func theHTTPAnswers() throws {
        let serve = try serve()
        defer { serve.stop() }
        let text = try HTTPExchange.curl("\(serve.origin)/eID-Client?Status")
        #expect(text.statuses == [200])
        #expect(text.headers["content-type"]?.hasPrefix("text/plain") == true)
        #expect(text.body.contains("Name: eid\n"))
        #expect(text.body.contains("Implementation-Version: "))
        expectCommonHeaders(text, cors: true)
        let json = try HTTPExchange.curl("\(serve.origin)/eID-Client?STATUS=json")
        #expect(json.statuses == [200])
        #expect(json.headers["content-type"] == "application/json")
        #expect(json.body.hasPrefix(#"{"Name":"eid","Implementation-Title":"eid""#))
        for method in ["OPTIONS", "HEAD"] {
            let preflight = try HTTPExchange.curl("\(serve.origin)/eID-Client", ["-X", method])
            #expect(preflight.statuses == [204], "\(method)")
            expectCommonHeaders(preflight, cors: true)
        }
        let missing = try HTTPExchange.curl("\(serve.origin)/nothing%3Cb%3E")
        #expect(missing.statuses == [404])
        #expect(missing.headers["content-type"]?.hasPrefix("text/html") == true)
        #expect(!missing.body.contains("<b>"))
        expectCommonHeaders(missing, cors: false)
        #expect(try HTTPExchange.curl("\(serve.origin)/eID-Client").statuses == [404])
        #expect(try HTTPExchange.curl("\(serve.origin)/eID-Kernel").statuses == [404])
        // DNS rebinding: a page at evil.example whose name now points to 127.0.0.1.
        let rebound = try HTTPExchange.curl(
            "\(serve.origin)/eID-Client?Status", ["-H", "Host: evil.example:\(serve.port)"])
        #expect(rebound.statuses == [403])
        #expect(!rebound.body.contains("Name: eid"))
        #expect(try HTTPExchange.curl("http://localhost:\(serve.port)/eID-Client?Status").statuses == [200])
    }

    /// The WebSocket handshake as a browser or a second client sends it, with `extra` headers: for
    /// refusals only (curl would hold an accepted connection until --max-time).
    func upgrade(_ serve: ServeProcess, _ extra: [String] = []) throws -> HTTPExchange {
        let headers = [
            "Connection: Upgrade", "Upgrade: websocket", "Sec-WebSocket-Version: 13",
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        ]
        return try HTTPExchange.curl(
            "\(serve.origin)/eID-Kernel", (headers + extra).flatMap { ["-H", $0] }, timeout: 30)
    }

    @Test func oneSDKClientAtATimeAndNoWebPage() throws {
        let serve = try serve()
        defer { serve.stop() }
        let client = try SDKClientScript(serve.kernel, mode: "hold")
        #expect(try upgrade(serve).statuses == [429])
        #expect(client.finish().status == 0)
        #expect(try upgrade(serve, ["Origin: https://evil.example"]).statuses == [403])
        #expect(try upgrade(serve, ["Host: evil.example:\(serve.port)"]).statuses == [403])
        // The next client is accepted once eid serve has seen the first one go.
        let next = try #require(SDKClientScript.whenFree(serve.kernel, mode: "hold"), "no second client taken")
        #expect(next.finish().status == 0)
    }

    /// As AusweisApp 2.x on a port of its own: the port in $TMPDIR/AusweisApp.<pid>.port and
    /// AusweisApp2.<pid>.port while it serves, gone at its end; the icon; a page whose Origin
    /// AUSWEISAPP_WEBSOCKET_ORIGIN matches may connect, another may not.
    @Test func portFilesIconAndAllowedOrigins() throws {
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("eid-tmp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: tmp) }
        let environment = Self.noPCSCD.merging(
            ["TMPDIR": tmp.path, "AUSWEISAPP_WEBSOCKET_ORIGIN": #"^https://app\.example(:[0-9]+)?$"#]) { $1 }
        let serve = try ServeProcess(["--simulator"], environment: environment)
        let pid = serve.process.processIdentifier
        let files = ["AusweisApp", "AusweisApp2"].map { tmp.appendingPathComponent("\($0).\(pid).port").path }
        for file in files {
            #expect((try? String(contentsOfFile: file, encoding: .utf8)) == String(serve.port), "\(file)")
        }
        let icon = try HTTPExchange.curl("\(serve.origin)/favicon.ico")
        #expect(icon.statuses == [200])
        #expect(icon.headers["content-type"] == "image/x-icon")
        #expect(try upgrade(serve, ["Origin: https://app.example.evil.example"]).statuses == [403])
        #expect(try upgrade(serve, ["Origin: https://app.example:8443"]).statuses == [101])
        serve.stop()
        for file in files { #expect(!FileManager.default.fileExists(atPath: file), "\(file) left behind") }
        let refused = try runTool(
            "eid", ["serve", "--port", "0"], environment: ["AUSWEISAPP_WEBSOCKET_ORIGIN": "(unclosed"], timeout: 20)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("AUSWEISAPP_WEBSOCKET_ORIGIN is not a regular expression"), "\(refused.stderr)")
    }

    @Test("EID_CLIENT_A1_01: a browser activation answered by the SDK client ends at the refresh address")
    func aBrowserActivationAnsweredByTheSDKClientEndsAtTheRefreshAddress() throws {
        let server = try TestServerProcess()
        defer { server.stop() }
        let serve = try serve()
        defer { serve.stop() }
        let client = try SDKClientScript(serve.kernel, mode: "auth")
        let browser = try HTTPExchange.curl(Self.activation(serve, tcTokenURL: "\(server.origin)/tctoken"))
        #expect(browser.statuses == [102, 303])
        let location = try #require(browser.headers["location"])
        #expect(location.hasPrefix("\(server.origin)/refresh?"))
        #expect(location.contains("ResultMajor=ok"))
        expectCommonHeaders(browser, cors: false)
        let (status, messages) = client.finish()
        #expect(status == 0)
        #expect(messages.contains(#"{"msg": "AUTH"}"#))
        #expect(messages.contains { $0.hasPrefix(#"{"msg": "ACCESS_RIGHTS""#) })
        #expect(messages.last?.contains("resultmajor#ok") == true)
        #expect(!messages.joined().contains("123456"))
        #expect(try server.result(session: nil)?.hasPrefix(#"{"ok":true"#) == true)
        #expect(!serve.output.contains("123456"))
    }

    @Test func aSecondActivationWhileOneRunsIs409() throws {
        let server = try TestServerProcess(["--slow-delay", "1"])
        defer { server.stop() }
        let serve = try serve()
        defer { serve.stop() }
        let client = try SDKClientScript(serve.kernel, mode: "auth")
        let first = Locked<HTTPExchange?>(nil)
        let done = DispatchSemaphore(value: 0)
        let url = Self.activation(serve, tcTokenURL: "\(server.origin)/tctoken?fault=slow")
        Thread.detachNewThread {
            first.withLock { $0 = try? HTTPExchange.curl(url) }
            done.signal()
        }
        // The first workflow runs once its SDK client has heard AUTH; the slow PAOS answers (1 s each) keep it running.
        #expect(client.waitFor(#"{"msg": "AUTH"}"#), "the first activation did not start")
        let second = try HTTPExchange.curl(Self.activation(serve, tcTokenURL: "\(server.origin)/tctoken"))
        #expect(second.statuses == [409])
        #expect(second.headers["content-type"]?.hasPrefix("text/html") == true)
        #expect(done.wait(timeout: .now() + 90) == .success)
        let answer = first.withLock { $0 }
        #expect(answer?.statuses == [102, 303])
        #expect(answer?.headers["location"]?.contains("ResultMajor=ok") == true)
        #expect(client.finish().status == 0)
    }

    /// The workflow has ended before the 303 goes out: an activation sent as soon as the
    /// previous one's 303 came is never 409 (AusweisApp never answers it so; the bench found it).
    @Test func backToBackActivationsAreNeverBusy() throws {
        let server = try TestServerProcess()
        defer { server.stop() }
        let serve = try serve()
        defer { serve.stop() }
        let client = try SDKClientScript(serve.kernel, mode: "auth-each")
        for round in 1...4 {
            let browser = try HTTPExchange.curl(Self.activation(serve, tcTokenURL: "\(server.origin)/tctoken"))
            #expect(browser.statuses == [102, 303], "activation \(round)")
            #expect(browser.headers["location"]?.contains("ResultMajor=ok") == true, "activation \(round)")
        }
        let (status, messages) = client.finish()
        #expect(status == 0)
        #expect(messages.filter { $0.contains("resultmajor#ok") }.count == 4)
    }

    @Test(
        """
        EID_CLIENT_A1_04, EID_CLIENT_D_16_b: without SDK client, terminal or pinentry an activation is refused; an \
        http tcTokenURL is 400 saying so
        """
    )
    func withNeitherSDKClientNorTerminalNorPinentryAnActivationIsRefused() throws {
        let serve = try serve(["--simulator", "--pinentry", "eid-no-such-pinentry"])
        defer { serve.stop() }
        let refused = try HTTPExchange.curl(Self.activation(serve, tcTokenURL: "https://127.0.0.1:1/tctoken"))
        #expect(refused.statuses == [503])
        #expect(refused.body.contains("connect an SDK client"))
        let http = try HTTPExchange.curl(Self.activation(serve, tcTokenURL: "http://127.0.0.1:1/tctoken"))
        #expect(http.statuses == [400])
        #expect(http.body.contains("not https"))
    }

    @Test("EID_CLIENT_A2_11: a TcToken that is not found is 404 after the interim answer")
    func aTcTokenThatIsNotFoundIs404AfterTheInterimAnswer() throws {
        let server = try TestServerProcess()
        defer { server.stop() }
        let serve = try serve()
        defer { serve.stop() }
        let client = try SDKClientScript(serve.kernel, mode: "auth")
        let browser = try HTTPExchange.curl(Self.activation(serve, tcTokenURL: "\(server.origin)/nothing"))
        #expect(browser.statuses == [102, 404])
        #expect(browser.headers["content-type"]?.hasPrefix("text/html") == true)
        expectCommonHeaders(browser, cors: false)
        #expect(client.finish().messages.last?.contains("resultmajor#error") == true)
    }

    @Test func changePINThenAnAuthenticationInOneSDKConnection() throws {
        let server = try TestServerProcess()
        defer { server.stop() }
        let serve = try serve()
        defer { serve.stop() }
        let client = try SDKClientScript(serve.kernel, mode: "change-pin", tcTokenURL: "\(server.origin)/tctoken")
        let (status, messages) = client.finish()
        #expect(status == 0, "\(messages)")
        #expect(messages.contains(#"{"msg": "CHANGE_PIN", "success": true}"#))
        #expect(messages.last?.contains("resultmajor#ok") == true)
        #expect(try server.result(session: nil)?.hasPrefix(#"{"ok":true"#) == true)
    }

    /// systemd's socket activation: systemd-socket-activate listens and starts eid serve with the
    /// socket (LISTEN_FDS=1); eid serve binds nothing itself.
    @Test func servesOnTheSocketSystemdPasses() throws {
        let activator = "/usr/bin/systemd-socket-activate"
        try #require(FileManager.default.isExecutableFile(atPath: activator), "needs Debian's systemd package")
        let port = try E2E.freePort()
        let portFile = FileManager.default.temporaryDirectory.appendingPathComponent("eid-serve-sa-\(port)")
        defer { try? FileManager.default.removeItem(at: portFile) }
        var env = ProcessInfo.processInfo.environment
        for (k, v) in Self.noPCSCD { env[k] = v }
        let activated = try SpawnedProgram(
            [
                activator, "-l", "127.0.0.1:\(port)", E2E.binDir.appendingPathComponent("eid").path, "serve",
                "--simulator", "--port", "1", "--port-file", portFile.path,
            ], environment: env)
        defer { activated.stop() }
        var answer = HTTPExchange(statuses: [], headers: [:], body: "")
        _ = try eventually {
            answer = try HTTPExchange.curl("http://127.0.0.1:\(port)/eID-Client?Status", timeout: 10)
            return !answer.statuses.isEmpty
        }
        #expect(answer.statuses == [200])
        #expect(answer.body.contains("Name: eid\n"))
        // The passed socket's port, not --port, once eid serve has written the file (not always before
        // it answered the first request).
        var written = ""
        _ = eventually {
            written = (try? String(contentsOf: portFile, encoding: .utf8)) ?? ""
            return !written.isEmpty
        }
        #expect(written == String(port))
    }
}
