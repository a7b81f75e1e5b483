import Foundation
import TestPrograms
import Testing

/// The two binaries together, no card reader: `eid auth --json --simulator` (the in-process
/// software card, the project's test CVCA) against `eid-testserver serve` over real HTTPS on
/// loopback. The server's `/result` is what a CI script asserts on.
@Suite(
    .serialized,
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: E2E.binDir.appendingPathComponent("eid-testserver").path),
        "needs the built eid-testserver binary: run `make test`"))
struct AuthAgainstTestServerTests {
    /// Runs `serve --port 0` (and `options`) for the length of `body`, which gets the port.
    func withServer(options: [String] = [], _ body: (Substring) throws -> Void) throws {
        let serve = Process()
        serve.executableURL = E2E.binDir.appendingPathComponent("eid-testserver")
        serve.arguments = ["serve", "--port", "0"] + options
        let serveOut = Pipe()
        serve.standardOutput = serveOut
        serve.standardError = Pipe()
        try serve.run()
        defer {
            serve.terminate()
            let end = Date(timeIntervalSinceNow: 10)
            while serve.isRunning && Date() < end { usleep(20_000) }
            if serve.isRunning { kill(serve.processIdentifier, SIGKILL) }
            serve.waitUntilExit()
        }
        var line = Data()
        let deadline = Date(timeIntervalSinceNow: 20)
        while !line.contains(UInt8(ascii: "\n")) && Date() < deadline {
            line += serveOut.fileHandleForReading.availableData
        }
        let greeting = String(decoding: line, as: UTF8.self)
        let port = try #require(greeting.split(separator: "(port ").last?.prefix { $0.isNumber })
        try body(port)
    }

    func result(port: Substring) throws -> String { try page("https://127.0.0.1:\(port)/result") }

    static let answers = #"{"cmd":"ACCEPT"}"# + "\n" + #"{"cmd":"SET_PIN","value":"123456"}"# + "\n"

    /// No pcscd for the `--simulator` runs: the test pcscd's readers may hold eid-sim cards of
    /// tests running meanwhile, and eid would take the first card it finds.
    static let noPCSCD = ["PCSCLITE_CSOCK_NAME": "/nonexistent/pcscd.comm"]

    /// Without libxml2 (loaded when first used, issue 19), the TcToken cannot be read: eid says to install
    /// libxml2 and asks for no PIN.
    @Test(.enabled(if: OnlineLibrariesTests.canHide, "needs root and unshare(1) for a private mount namespace"))
    func withoutLibxml2TheTcTokenIsNotReadAndEidSaysWhatToInstall() throws {
        try withServer { port in
            let auth = try OnlineLibrariesTests.runEIDWithout(
                "libxml2.so.2", ["auth", "--json", "--simulator", "https://127.0.0.1:\(port)/tctoken"],
                environment: Self.noPCSCD)
            #expect(auth.status != 0)
            #expect(!messageNames(auth.stdoutLines).contains("ENTER_PIN"), "\(auth.stdout)")
            #expect((auth.stdout + auth.stderr).contains("apt install libxml2"), "\(auth.stdout)\n\(auth.stderr)")
        }
    }

    @Test func authenticationSucceedsAndTheServerReadsTheSampleData() throws {
        try withServer { port in
            let auth = try runTool(
                "eid", ["auth", "--json", "--simulator", "https://127.0.0.1:\(port)/tctoken"], stdin: Self.answers,
                environment: Self.noPCSCD, timeout: 60)
            #expect(auth.status == 0, "\(auth.stderr)")
            let last = try #require(auth.stdout.split(separator: "\n").last)
            #expect(last.contains(#""msg":"AUTH""#) && last.contains("resultmajor#ok"))
            #expect(last.contains(#""url":"https://127.0.0.1:\#(port)/refresh?session="#))
            let read = try result(port: port)
            #expect(read.hasPrefix(#"{"ok":true"#))
            #expect(read.contains(#""GivenNames":"ERIKA""#) && read.contains(#""FamilyName":"MUSTERMANN""#))
            #expect(!auth.stdout.contains("123456") && !auth.stderr.contains("123456"))
        }
    }

    /// What a browser does, but with eid auth as the client: the start page's login link (the
    /// activation URL) starts the authentication, and the refresh page it ends at says who
    /// logged in. `--client-port` moves the link.
    @Test func theStartPageLinkLogsInAndTheRefreshPageSaysWho() throws {
        try withServer { port in
            let start = try page("https://127.0.0.1:\(port)/")
            #expect(start.contains(">Log in with your ID card</a>"))
            let link = try #require(
                start.split(separator: "\"").first { $0.hasPrefix("http://127.0.0.1:24727/eID-Client?tcTokenURL=") })
            let auth = try runTool(
                "eid", ["auth", "--json", "--simulator", String(link)], stdin: Self.answers,
                environment: Self.noPCSCD, timeout: 60)
            #expect(auth.status == 0, "\(auth.stderr)")
            let last = try #require(auth.stdout.split(separator: "\n").last)
            let url = try #require(last.components(separatedBy: #""url":""#).last?.split(separator: "\"").first)
            let refresh = try page(String(url))
            #expect(refresh.contains(#"Logged in: <span id="person">ERIKA MUSTERMANN</span>"#), "\(refresh)")
        }
        try withServer(options: ["--client-port", "38555"]) { port in
            let start = try page("https://127.0.0.1:\(port)/")
            #expect(start.contains("http://127.0.0.1:38555/eID-Client?tcTokenURL="))
        }
    }

    /// A page of the server, by curl.
    func page(_ url: String) throws -> String {
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = ["-sSk", "--max-time", "20", url]
        let out = Pipe()
        curl.standardOutput = out
        try curl.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        curl.waitUntilExit()
        return text
    }

    /// Without any lockable memory (RLIMIT_MEMLOCK 0, as some containers set it) the secrets live
    /// unlocked: the authentication is the same, no error, no warning (issue 15).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit"), "needs prlimit"))
    func withoutLockableMemoryTheAuthenticationIsTheSame() throws {
        try withServer { port in
            let auth = try runTool(
                "eid", ["auth", "--json", "--simulator", "https://127.0.0.1:\(port)/tctoken?fault=psk"],
                stdin: Self.answers, environment: Self.noPCSCD, timeout: 60,
                launcher: ["/usr/bin/prlimit", "--memlock=0:0", "--"])
            #expect(auth.status == 0, "\(auth.stderr)")
            #expect(auth.stderr.isEmpty || !auth.stderr.lowercased().contains("lock"))
            #expect(try result(port: port).hasPrefix(#"{"ok":true"#))
        }
    }

    @Test func aWrongTASignatureEndsWithAnErrorOnBothSides() throws {
        try withServer { port in
            let auth = try runTool(
                "eid", ["auth", "--json", "--simulator", "https://127.0.0.1:\(port)/tctoken?fault=wrong_ta_signature"],
                stdin: Self.answers, environment: Self.noPCSCD, timeout: 60)
            #expect(auth.status != 0)
            let last = try #require(auth.stdout.split(separator: "\n").last)
            #expect(last.contains(#""msg":"AUTH""#) && last.contains("resultmajor#error"))
            #expect(try result(port: port).hasPrefix(#"{"ok":false"#))
        }
    }

    /// pcscd not running (no --simulator): the TcToken comes, then the readers cannot be opened;
    /// the JSON face still ends with AUTH carrying the result (an SDK client waits for it).
    @Test func pcscdNotRunningAfterTheTcTokenEndsWithAuth() throws {
        try withServer { port in
            let auth = try runTool(
                "eid", ["auth", "--json", "https://127.0.0.1:\(port)/tctoken"], stdin: "",
                environment: Self.noPCSCD, timeout: 60)
            #expect(auth.status == 3, "\(auth.stderr)")
            #expect(auth.stderr.contains("pcscd"))
            #expect(messageNames(auth.stdoutLines) == ["AUTH", "STATUS", "STATUS", "AUTH"])
            let last = try #require(auth.stdoutLines.last)
            #expect(last.contains(#""reason":"Reader_Service_Unavailable""#) && last.contains("resultmajor#error"))
        }
    }

    /// chat_beyond_dv: the AT grants DG9, its DV does not. eid does not refuse the chain, shows
    /// DG9 as required but not among the effective rights (the card grants the AND of the
    /// CHATs), the card refuses READ BINARY of DG9 with 6982 and the server ends with an error
    /// after reading the data groups before it.
    @Test func aTerminalBeyondItsDVIsNotRefusedButTheCardRefusesWhatTheDVLacks() throws {
        try withServer { port in
            let auth = try runTool(
                "eid", ["auth", "--json", "--simulator", "https://127.0.0.1:\(port)/tctoken?fault=chat_beyond_dv"],
                stdin: Self.answers, environment: Self.noPCSCD, timeout: 60)
            #expect(auth.status != 0)
            let lines = auth.stdout.split(separator: "\n")
            let rights = try #require(lines.first { $0.contains(#""msg":"ACCESS_RIGHTS""#) })
            let effective = try #require(rights.firstRange(of: #""effective":["#).map { rights[$0.upperBound...] })
            #expect(!effective.prefix { $0 != "]" }.contains("PlaceOfBirth"))
            #expect(effective.prefix { $0 != "]" }.contains("DateOfBirth"))
            #expect(rights.contains("PlaceOfBirth"), "still asked for (required)")
            let last = try #require(lines.last)
            #expect(last.contains(#""msg":"AUTH""#) && last.contains("resultmajor#error"))
            #expect(last.contains("al/common#unknownError"))
            let read = try result(port: port)
            #expect(read.hasPrefix(#"{"ok":false"#))
            #expect(read.contains(#""reason":"card_refused""#))
            #expect(read.contains(#""DateOfBirth":"1984-08-12""#) && !read.contains("PlaceOfBirth"))
        }
    }
}

/// `eid auth --open` as a process: a fake `xdg-open` first on PATH gets the refresh address as
/// its one argument; nothing it prints reaches the JSON on standard output.
extension AuthAgainstTestServerTests {
    /// A directory with an executable `xdg-open` that records its arguments in `args`, then the
    /// descriptors it was started with in `fds` (DescriptorLister), and prints on both streams.
    static func fakeXdgOpen() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("eid-xdg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try ExecutableFile.write(
            """
            #!/bin/sh
            { echo "$#"; for a in "$@"; do printf '%s\\n' "$a"; done; } > "\(dir.path)/args"
            \(DescriptorLister.command(writingTo: dir.appendingPathComponent("fds").path))
            echo "xdg-open noise"
            echo "xdg-open noise" >&2

            """, to: dir.appendingPathComponent("xdg-open").path)
        return dir
    }

    @Test func openHandsTheRefreshAddressToXdgOpen() throws {
        let dir = try Self.fakeXdgOpen()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        try withServer { port in
            let auth = try runTool(
                "eid", ["auth", "--json", "--simulator", "--open", "https://127.0.0.1:\(port)/tctoken"],
                stdin: Self.answers, environment: Self.noPCSCD.merging(["PATH": dir.path + ":" + path]) { $1 },
                timeout: 60)
            #expect(auth.status == 0, "\(auth.stderr)")
            #expect(!auth.stdout.contains("noise"))
            for line in auth.stdout.split(separator: "\n") { #expect(line.hasPrefix("{"), "\(line)") }
            let last = try jsonObject(String(try #require(auth.stdout.split(separator: "\n").last)))
            let url = try #require(last["url"] as? String)
            // AUTH's url as AusweisApp's SDK gives it; the browser's has the result parameters.
            #expect(url.hasPrefix("https://127.0.0.1:\(port)/refresh?") && !url.contains("ResultMajor"))
            // Only standard input, output and error (all /dev/null in JSON mode) reach the opener:
            // none of eid's connections, to the eID server or pcscd.
            let open = try DescriptorLister.read(dir.appendingPathComponent("fds"))
            #expect(open == [0: "/dev/null", 1: "/dev/null", 2: "/dev/null"], "\(open)")
            let args = try String(contentsOf: dir.appendingPathComponent("args"), encoding: .utf8)
            #expect(args == "1\n" + url + "&ResultMajor=ok\n")
        }
    }

    @Test func openWithoutXdgOpenSaysSoAndTheOutcomeStands() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("eid-nopath-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        try withServer { port in
            let auth = try runTool(
                "eid", ["auth", "--json", "--simulator", "--open", "https://127.0.0.1:\(port)/tctoken"],
                stdin: Self.answers, environment: Self.noPCSCD.merging(["PATH": empty.path]) { $1 }, timeout: 60)
            #expect(auth.status == 0, "\(auth.stderr)")
            #expect(auth.stderr.contains("eid: --open: xdg-open is not installed"))
            #expect(auth.stdoutLines.last?.contains("resultmajor#ok") == true)
        }
    }
}

extension AuthAgainstTestServerTests {
    /// `--simulator` with `--reader` naming another reader than the in-process card's: refused
    /// before anything is fetched.
    @Test func simulatorWithAnotherReaderIsRefused() throws {
        let auth = try runTool(
            "eid", ["auth", "--json", "--simulator", "--reader", "Virtual PCD 00 00", "https://127.0.0.1:1/tctoken"])
        #expect(auth.status == 64, "\(auth.stderr)")
        #expect(auth.stderr.contains("--simulator uses the in-process card"), "\(auth.stderr)")
        #expect(auth.stdout.isEmpty)
        let named = try runTool(
            "eid", ["auth", "--json", "--simulator", "--reader", "Simulator", "https://127.0.0.1:1/tctoken"])
        #expect(named.status == 7, "\(named.stderr)")
    }
}

/// The acceptance line of `eid auth`: eid-sim in the test pcscd, `eid-testserver serve`, and
/// `eid auth --json --test-pki` answering ACCEPT and SET_PIN from standard input.
extension ThroughPCSCD {
    @Suite(
        .enabled(
            if: FileManager.default.isExecutableFile(
                atPath: E2E.binDir.appendingPathComponent("eid-testserver").path),
            "needs the built eid-testserver binary: run `make test`"))
    struct AuthThroughPCSCDTests {
        @Test func eidAuthWithTheSoftwareCardInPCSCD() throws {
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(reader: reader, port: port)
                defer { card.stop() }
                let server = AuthAgainstTestServerTests()
                try server.withServer { serverPort in
                    let auth = try runTool(
                        "eid",
                        [
                            "auth", "--json", "--test-pki", "--reader", reader,
                            "https://127.0.0.1:\(serverPort)/tctoken",
                        ],
                        stdin: AuthAgainstTestServerTests.answers, timeout: 60)
                    #expect(auth.status == 0, "\(auth.stderr)")
                    #expect(
                        messageNames(auth.stdoutLines).filter { $0 != "STATUS" } == [
                            "AUTH", "ACCESS_RIGHTS", "READER", "ENTER_PIN", "AUTH",
                        ])
                    #expect(auth.stdoutLines.last?.contains("resultmajor#ok") == true)
                    let read = try server.result(port: serverPort)
                    #expect(read.hasPrefix(#"{"ok":true"#) && read.contains(#""GivenNames":"ERIKA""#))
                    #expect(read.contains(#""passiveAuthentication":"verified""#))
                }
            }
        }

        /// `--simulator` authenticates with the in-process card even while a PC/SC reader holds
        /// an eID card: here one with its PIN suspended, which would ask for the CAN that the
        /// answers do not hold (the intermittent exit 5 of the `--simulator` tests in a full
        /// `make test`, when a test of this suite had its card in a vpcd reader at the time).
        @Test func simulatorUsesTheInProcessCardWhileAPCSCReaderHoldsOne() throws {
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(reader: reader, port: port, arguments: ["--pin-retries", "1"])
                defer { card.stop() }
                let server = AuthAgainstTestServerTests()
                try server.withServer { serverPort in
                    let auth = try runTool(
                        "eid", ["auth", "--json", "--simulator", "https://127.0.0.1:\(serverPort)/tctoken"],
                        stdin: AuthAgainstTestServerTests.answers, timeout: 60)
                    #expect(auth.status == 0, "\(auth.stderr)\n\(auth.stdoutLines.joined(separator: "\n"))")
                    let readers = auth.stdoutLines.compactMap { try? jsonObject($0) }
                        .filter { $0["msg"] as? String == "READER" }.map { $0["name"] as? String }
                    #expect(readers == ["Simulator"])
                    let read = try server.result(port: serverPort)
                    #expect(read.hasPrefix(#"{"ok":true"#) && read.contains(#""GivenNames":"ERIKA""#), "\(read)")
                }
                // The card in the PC/SC reader was not used: still one PIN attempt, not suspended by eid.
                let list = try runTool("eid", ["readers", "--json"])
                let entry = try readerEntry(reader, in: list.stdout)
                #expect((entry["card"] as? [String: Any])?["retryCounter"] as? Int == 1, "\(list.stdout)")
            }
        }
    }
}
