import Foundation
import SmartCard
import Testing

/// Issue 10's tests of `eid auth` on the network side, each a whole run of the built binaries:
/// `eid auth --json --test-pki --reader R URL` (answers from standard input) with eid-sim as the
/// card in the test pcscd, against one `eid-testserver serve` for all cases. Every success
/// variant and every fault of eid-testserver ends with the AUTH result (major, minor, reason)
/// and the `url` AusweisApp gives for the same cause, eid's exit status, and the server's
/// `/result?session=ID`; a failure found before the card asks for no PIN. Cases that need the
/// card run one after another on one reader with one eid-sim; the others run side by side.
extension ThroughPCSCD {
    @Suite(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: E2E.binDir.appendingPathComponent("eid-testserver").path),
            "needs the built eid-testserver binary: run `make test`"),
        .sharedTestServer)
    struct AuthFaultsTests {
        static let resultMinor = "http://www.bsi.bund.de/ecard/api/1.1/resultminor"
        static let accept = #"{"cmd":"ACCEPT"}"#
        static let pin = #"{"cmd":"SET_PIN","value":"123456"}"#

        /// What one run must end with.
        struct Expected: Sendable {
            /// The AUTH message's minor after the resultminor prefix; nil: major ok.
            var minor: String?
            /// The AUTH message's reason (nil: none, as on success).
            var reason: String?
            var status: Int32
            /// The messages eid prints, in order (INSERT_CARD ignored: the card may be slow to show).
            var messages: [String]
            /// The url's address without its query, relative to the server's origin ("/refresh",
            /// "/refresh?session=…&error=communication" is "/refresh+error"); nil: no url.
            var urlPath: String?
            /// The result parameters the browser's address (--open: the url with them) ends with;
            /// nil: nothing is opened (the fake xdg-open must not have run).
            var urlResult: String?
            /// What `/result?session=ID` says: true, false, or nil when there is no session to ask about.
            var serverOK: Bool?
            /// Data groups `/result` must show (and not show), by SDK name.
            var read: [String] = []
            var notRead: [String] = []
            /// Text `/result` must contain (e.g. the reason of its error).
            var resultContains: [String] = []
            /// Text the AUTH message's `message` must contain.
            var messageContains: [String] = []
            /// Text that must appear nowhere in eid's output (besides the PIN, always checked).
            var secrets: [String] = []
            /// Text eid's standard error must contain (the sentence that tells the user why).
            var stderrContains: [String] = []
            /// Text eid's standard output (its JSON messages) must contain.
            var stdoutContains: [String] = []
        }

        struct Case: Sendable, CustomStringConvertible {
            var name: String
            var query: String
            var commands: [String]
            var expected: Expected
            var description: String { name }
        }

        static let succeeded = ["AUTH", "ACCESS_RIGHTS", "READER", "ENTER_PIN", "AUTH"]
        static let beforeTheCard = ["AUTH", "AUTH"]

        static func success(
            _ name: String, _ query: String, commands: [String] = [accept, pin], messages: [String] = succeeded,
            notRead: [String] = []
        ) -> Case {
            Case(
                name: name, query: query, commands: commands,
                expected: Expected(
                    minor: nil, reason: nil, status: 0, messages: messages, urlPath: "/refresh",
                    urlResult: "ResultMajor=ok", serverOK: true, read: ["GivenNames"], notRead: notRead))
        }

        /// The success variants (the card needed).
        static let successes: [Case] = [
            success("plain", ""),
            success("psk", "?fault=psk"),
            // eid-testserver asks for no optional right (every right is required), so selecting
            // none changes nothing here; deselecting an optional right is AuthDeselectedRightTests' (--attributes).
            success(
                "SET_ACCESS_RIGHTS with no optional right", "",
                commands: [#"{"cmd":"SET_ACCESS_RIGHTS","chat":[]}"#, accept, pin],
                messages: ["AUTH", "ACCESS_RIGHTS", "ACCESS_RIGHTS", "READER", "ENTER_PIN", "AUTH"]),
            success("redirect", "?fault=redirect"),
            success("initframework", "?fault=initframework"),
            success("eac_additional", "?fault=eac_additional"),
            success("aux_age", "?fault=aux_age"),
            success("transmit_single", "?fault=transmit_single"),
            // A CVCA rollover: EAC1 carries the link certificate to the next CVCA before DV and AT;
            // eid builds its chain through it and eid-sim moves its trust point on.
            success("cvca_link", "?fault=cvca_link"),
            success("slow", "?fault=slow"),
        ]

        /// A failure reported to the server and echoed in its StartPAOSResponse: AusweisApp takes
        /// the server's result, so the url says serverError for any minor but the three it names.
        static func reported(
            _ name: String, minor: String, reason: String, status: Int32, messages: [String],
            urlMinor: String? = nil
        ) -> Case {
            let named = [
                "/dp#trustedChannelEstablishmentFailed": "trustedChannelEstablishmentFailed",
                "/al/common#communicationError": "communicationError", "/sal#cancellationByUser": "cancellationByUser",
            ]
            return Case(
                name: name, query: "?fault=" + name, commands: [accept, pin],
                expected: Expected(
                    minor: minor, reason: reason, status: status, messages: messages, urlPath: "/refresh",
                    urlResult: "ResultMajor=error&ResultMinor=" + (urlMinor ?? named[minor] ?? "serverError"),
                    serverOK: false))
        }

        /// `failure` ending at the CommunicationErrorAddress with communicationError.
        static func communicationErrorAddress(_ failure: Case) -> Case {
            var changed = failure
            changed.expected.urlPath = "/refresh+error"
            changed.expected.urlResult = "ResultMajor=error&ResultMinor=communicationError"
            return changed
        }

        /// Faults a conforming client finds before the card: no ACCESS_RIGHTS, no PIN.
        static let foundBeforeTheCard: [Case] = [
            reported(
                "description_hash_mismatch", minor: "/al/common#parameterError",
                reason: "Certificate_Check_Failed_Hash_Mismatch", status: 6, messages: beforeTheCard),
            // AusweisApp2 and eid end these two at the CommunicationErrorAddress: the refresh address check
            // (docs/protocol.md, "Refresh address check") against the refused EAC1's description fails (the
            // refresh address is of another origin than the subject URL and answers no redirect; the TLS
            // certificate is not in CommCertificates).
            communicationErrorAddress(
                reported(
                    "sop_violation", minor: "/al/common#parameterError",
                    reason: "Certificate_Check_Failed_Same_Origin_Policy_Violation", status: 6,
                    messages: beforeTheCard)),
            communicationErrorAddress(
                reported(
                    "tls_not_in_description", minor: "/dp#trustedChannelEstablishmentFailed",
                    reason: "Certificate_Check_Failed_Hash_Missing_In_Description", status: 6,
                    messages: beforeTheCard)),
            reported(
                "expired_at", minor: "/il/signature#invalidCertificatePath",
                reason: "Pre_Verification_Certificate_Expired", status: 6, messages: beforeTheCard),
            reported(
                "two_at", minor: "/il/signature#invalidCertificatePath", reason: "Workflow_No_Unique_AtCvc",
                status: 6, messages: beforeTheCard),
            // A PAOS message out of order or not XML: AusweisApp's own internalError, as a client error.
            reported(
                "wrong_order", minor: "/al/common#internalError",
                reason: "Workflow_Unexpected_Message_From_EidServer", status: 6, messages: beforeTheCard,
                urlMinor: "clientError"),
            reported(
                "broken_xml", minor: "/al/common#internalError", reason: "Workflow_Unknown_Paos_From_EidServer",
                status: 6, messages: beforeTheCard, urlMinor: "clientError"),
            // Auxiliary data of 70 000 bytes: refused with EAC1 (eid takes at most 256 bytes), as
            // malformed ones are. AusweisApp2 1.26.2 takes them, asks for the PIN, cannot build
            // MSE:Set AT ("Command data exceeds maximum of 0xffff"), sends an empty APDU and gives
            // no result at all (measured; the outlier). eid stopped in the APDU builder before.
            reported(
                "oversized_aux_data", minor: "/al/common#parameterError", reason: "Workflow_Invalid_Auxiliary_Data",
                status: 6, messages: beforeTheCard),
        ]

        /// Faults found with the card, after the PIN.
        static let foundWithTheCard: [Case] = [
            reported(
                "wrong_ta_signature", minor: "/al/common#noPermission", reason: "Workflow_No_Permission_Error",
                status: 6, messages: succeeded),
            // The chain is not refused (TR-03110-3: the card grants the AND of the chain's CHATs);
            // the card refuses the data group the DV lacks and the server ends with an error, as
            // with AusweisApp2. The batch stopped at the refusal (the reason), the url carries the
            // server's error.
            reported(
                "chat_beyond_dv", minor: "/al/common#unknownError", reason: "Card_Unexpected_Transmit_Status",
                status: 6, messages: succeeded),
            reported(
                "transmit_bad_mac", minor: "/al/common#unknownError", reason: "Card_Unexpected_Transmit_Status",
                status: 6, messages: succeeded),
            // The server's Transmit tries to change the PIN (RESET RETRY COUNTER) without PIN
            // management in its CHAT: eid passes the APDU on unchanged, the card refuses it (6982),
            // the server ends with an error. The cases after this one open the card with the
            // old PIN: it was not changed.
            {
                var refused = reported(
                    "transmit_change_pin", minor: "/al/common#unknownError",
                    reason: "Card_Unexpected_Transmit_Status", status: 6, messages: succeeded)
                refused.expected.resultContains = [#""reason":"card_refused""#, "RESET RETRY COUNTER"]
                refused.expected.notRead = ["GivenNames"]
                return refused
            }(),
            // A TA signature of 70 000 bytes, not the 64 of r ‖ s on the AT key's curve: refused before
            // it reaches the card, as a malformed DIDAuthenticate (eid stopped in the APDU builder
            // before). AusweisApp2 1.26.2 sends an empty APDU instead and gives no result (measured).
            reported(
                "oversized_ta_signature", minor: "/al/common#internalError",
                reason: "Workflow_Unknown_Paos_From_EidServer", status: 6, messages: succeeded),
            reported(
                "final_error", minor: "/al/common#internalError", reason: "Paos_Generic_Server_Error", status: 6,
                messages: succeeded),
            // The server closes the connection instead of answering; the request is sent again
            // on a fresh connection (libcurl, as Qt, retries once on a reused connection that
            // closed unanswered) and the ended session answers StartPAOSResponse internalError.
            reported(
                "abort_mid_transmit", minor: "/al/common#internalError", reason: "Paos_Generic_Server_Error",
                status: 6, messages: succeeded),
            // AusweisApp refuses a TcToken whose RefreshAddress is not https (TcToken::valid) and
            // sends the browser to its CommunicationErrorAddress with communicationError.
            Case(
                name: "http_refresh", query: "?fault=http_refresh", commands: [accept, pin],
                expected: Expected(
                    minor: "/dp#trustedChannelEstablishmentFailed",
                    reason: "Workflow_TrustedChannel_Server_Format_Error",
                    status: 6, messages: beforeTheCard, urlPath: "/refresh+error",
                    // Refused before the readers are opened: `eid auth --open` opens nothing (eid
                    // serve's 303 has communicationError: serve_peer_tests.py).
                    urlResult: nil, serverOK: nil)),
        ]

        /// TLS-2 with a PSK the server does not use: the handshake fails before StartPAOS.
        static let pskWrongKey = Case(
            name: "psk_wrong_key", query: "?fault=psk_wrong_key", commands: [accept, pin],
            expected: Expected(
                minor: "/dp#trustedChannelEstablishmentFailed", reason: "Workflow_TrustedChannel_Error_From_Server",
                status: 7, messages: beforeTheCard, urlPath: "/refresh",
                urlResult: "ResultMajor=error&ResultMinor=trustedChannelEstablishmentFailed", serverOK: nil))

        // MARK: Running a case

        /// Runs `eid auth` for `url` with `commands` on standard input (and `environment` added to the
        /// test's) and checks `expected`; returns what did not hold (a test thread records it).
        static func check(
            _ name: String, url: String, commands: [String], expected: Expected, reader: String,
            server: TestServerProcess?, environment: [String: String] = [:]
        ) -> [String] {
            var problems: [String] = []
            func expect(_ condition: Bool, _ what: @autoclosure () -> String) {
                if !condition { problems.append("\(name): \(what())") }
            }
            let run: RunResult
            let opener: URL
            do {
                // --open: the address with the result parameters goes to a fake xdg-open.
                opener = try AuthAgainstTestServerTests.fakeXdgOpen()
                let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
                run = try runTool(
                    "eid", ["auth", "--json", "--open", "--test-pki", "--reader", reader, "--timeout", "30", url],
                    stdin: commands.map { $0 + "\n" }.joined(),
                    environment: environment.merging(["PATH": opener.path + ":" + path]) { $1 }, timeout: 60)
            } catch {
                return ["\(name): eid did not run: \(error)"]
            }
            defer { try? FileManager.default.removeItem(at: opener) }
            let lines = run.stdoutLines
            expect(
                run.status == expected.status, "exit status \(run.status), not \(expected.status); stderr \(run.stderr)"
            )
            let names = messageNames(lines).filter { $0 != "INSERT_CARD" && $0 != "STATUS" }
            expect(names == expected.messages, "messages \(names), not \(expected.messages)")
            guard let last = lines.last.flatMap({ try? jsonObject($0) }), last["msg"] as? String == "AUTH" else {
                return problems + ["\(name): the last line is no AUTH message: \(lines.last ?? "(none)")"]
            }
            let result = last["result"] as? [String: Any] ?? [:]
            let major = result["major"] as? String ?? ""
            expect(major.hasSuffix(expected.minor == nil ? "resultmajor#ok" : "resultmajor#error"), "major \(major)")
            let minor = result["minor"] as? String
            expect(
                minor == expected.minor.map { resultMinor + $0 },
                "minor \(minor ?? "none"), not \(expected.minor ?? "none")")
            let reason = result["reason"] as? String
            expect(reason == expected.reason, "reason \(reason ?? "none"), not \(expected.reason ?? "none")")
            let message = result["message"] as? String ?? ""
            for text in expected.messageContains {
                expect(message.contains(text), "message \(message) without \(text)")
            }
            let url = last["url"] as? String
            var session: String?
            if let path = expected.urlPath, let server {
                let base: String
                if path == "/refresh+error" {
                    base = server.origin + "/refresh?session="
                } else {
                    base = server.origin + path + "?session="
                }
                expect(url?.hasPrefix(base) == true, "url \(url ?? "none"), not \(base)…")
                // AUTH's url is the address exactly as the TcToken had it (AusweisApp's SDK); the
                // browser's (--open) has the result parameters.
                if let url, url.hasPrefix(base) {
                    let id = String(url.dropFirst(base.count).prefix { $0 != "&" })
                    session = id
                    let address = base + id + (path == "/refresh+error" ? "&error=communication" : "")
                    expect(url == address, "url \(url), not \(address)")
                }
                if let suffix = expected.urlResult, let url {
                    let opened = try? String(contentsOf: opener.appendingPathComponent("args"), encoding: .utf8)
                    expect(opened == "1\n\(url)&\(suffix)\n", "opened \(opened ?? "nothing"), not \(url)&\(suffix)")
                }
            } else {
                expect(url == nil, "url \(url ?? "none"), not none")
            }
            if expected.urlResult == nil {
                // What the fake xdg-open received: nothing, as `urlResult` nil says.
                let opened = try? String(contentsOf: opener.appendingPathComponent("args"), encoding: .utf8)
                expect(opened == nil, "opened \(opened ?? ""), not nothing")
            }
            if let ok = expected.serverOK, let server {
                guard let session else { return problems + ["\(name): no session id in the url"] }
                // The server may still be writing its result as eid ends.
                var text: String?
                _ = eventually {
                    text = try? server.result(session: session)
                    return text != nil
                }
                let json = text ?? "(none)"
                expect(json.hasPrefix(ok ? #"{"ok":true"# : #"{"ok":false"#), "/result \(json)")
                for group in expected.read {
                    expect(json.contains("\"\(group)\":"), "/result without \(group): \(json)")
                }
                for group in expected.notRead {
                    expect(!json.contains("\"\(group)\":"), "/result with \(group): \(json)")
                }
                for text in expected.resultContains { expect(json.contains(text), "/result without \(text): \(json)") }
            }
            for text in expected.stderrContains {
                expect(run.stderr.contains(text), "stderr without \(text): \(run.stderr)")
            }
            for text in expected.stdoutContains {
                expect(run.stdout.contains(text), "standard output without \(text): \(run.stdout)")
            }
            for secret in ["123456"] + expected.secrets {
                expect(!run.stdout.contains(secret) && !run.stderr.contains(secret), "a secret in the output")
            }
            return problems
        }

        /// Runs `cases` against `server`: with `withCard` one after another on one reader with
        /// one eid-sim (the test pcscd's two readers are two slots of one vpcd driver, whose state
        /// is global: two card sessions at once on them are not reliable); the others side by
        /// side (they never reach a reader).
        static func run(_ cases: [Case], server: TestServerProcess, withCard: Bool) throws {
            let problems = Problems()
            if withCard {
                try E2E.pool.withReader { reader, port in
                    let card = try SimulatedCard(reader: reader, port: port)
                    defer { card.stop() }
                    for next in cases {
                        problems.add(
                            check(
                                next.name, url: server.origin + "/tctoken" + next.query, commands: next.commands,
                                expected: next.expected, reader: reader, server: server))
                    }
                }
            } else {
                let reader = E2E.readers[0].name
                inParallel(cases, width: 6) { next in
                    problems.add(
                        check(
                            next.name, url: server.origin + "/tctoken" + next.query, commands: next.commands,
                            expected: next.expected, reader: reader, server: server))
                }
            }
            for problem in problems.all { Issue.record(Comment(rawValue: problem)) }
        }

        // MARK: The tests

        static var server: TestServerProcess {
            get throws {
                guard let server = SharedTestServer.current else {
                    throw E2EError.unexpected("no shared eid-testserver")
                }
                return server
            }
        }

        /// TR-03124-2: plain is the attached model without PathSecurity (A2_18), psk the PSK channel
        /// (A2_01), redirect a 303 to the TcToken (A2_07), initframework B_25, eac_additional B_03,
        /// aux_age B_05; each ends at the refresh address with ResultMajor=ok (A4_01).
        @Test(
            """
            EID_CLIENT_A2_01, EID_CLIENT_A2_07, EID_CLIENT_A2_18, EID_CLIENT_A4_01, EID_CLIENT_B_01, \
            EID_CLIENT_B_03, EID_CLIENT_B_05, EID_CLIENT_B_25: every success variant ends ok and the server reads \
            the data
            """
        )
        func everySuccessVariantEndsOKAndTheServerReadsTheData() throws {
            try Self.run(Self.successes, server: Self.server, withCard: true)
        }

        /// TR-03124-2 EID_CLIENT_A2_19: a TcToken naming PathSecurity-Protocol TLS-PSK with empty
        /// PathSecurity-Parameters is the attached model; eid authenticates over TLS-2 without PSK
        /// (the server refuses a PSK identity on such a session), as AusweisApp2 does.
        @Test("EID_CLIENT_A2_19: a TcToken naming TLS-PSK without a PSK authenticates (attached model)")
        func pskProtocolWithoutParametersAuthenticates() throws {
            let fault = "psk_protocol_no_parameters"
            try Self.run([Self.success(fault, "?fault=" + fault)], server: Self.server, withCard: true)
        }

        /// TR-03124-2: tls_not_in_description (the one server is eService and eID server: A3_01,
        /// A3_02), sop_violation (A3_04), description_hash_mismatch (A3_06), expired_at (B_28).
        @Test(
            """
            EID_CLIENT_A3_01, EID_CLIENT_A3_02, EID_CLIENT_A3_04, EID_CLIENT_A3_06, EID_CLIENT_B_28: faults found \
            before the card end with AusweisApp's result and ask for no PIN
            """
        )
        func faultsFoundBeforeTheCardEndWithAusweisAppsResultAndAskForNoPIN() throws {
            try Self.run(Self.foundBeforeTheCard + [Self.pskWrongKey], server: Self.server, withCard: false)
        }

        /// TR-03124-2: http_refresh (A2_26), final_error (B_23).
        @Test("EID_CLIENT_A2_26, EID_CLIENT_B_23: faults found with the card end with AusweisApp's result")
        func faultsFoundWithTheCardEndWithAusweisAppsResult() throws {
            try Self.run(Self.foundWithTheCard, server: Self.server, withCard: true)
        }

        /// TLS certificates made once per run by Tests/Support/tls-test-pki.sh (an expired one,
        /// RSA 3072 ones for the Python https server).
        static let tlsPKI: Result<URL, Error> = Result {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("eid-authfaults-\(getpid())")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            let script = Process()
            script.executableURL = E2E.packageRoot.appendingPathComponent("Tests/Support/tls-test-pki.sh")
            script.arguments = [dir.path]
            script.standardOutput = FileHandle.nullDevice
            script.standardError = FileHandle.nullDevice
            try script.run()
            script.waitUntilExit()
            guard script.terminationStatus == 0 else { throw E2EError.unexpected("tls-test-pki.sh failed") }
            return dir
        }

        /// `eid-testserver serve --tls-certificate` with a TLS certificate that expired in 2021: the
        /// TcToken fetch (TLS-1) fails on it; there is no TcToken, so no url.
        @Test func anExpiredTLSCertificateEndsTheFetch() throws {
            let pki = try Self.tlsPKI.get()
            let server = try TestServerProcess([
                "--tls-certificate", pki.appendingPathComponent("expired.pem").path,
                "--tls-key", pki.appendingPathComponent("expired.key").path,
            ])
            defer { server.stop() }
            let problems = Self.check(
                "expired TLS certificate", url: server.origin + "/tctoken", commands: [Self.accept, Self.pin],
                expected: Expected(
                    minor: "/dp#trustedChannelEstablishmentFailed",
                    reason: "Workflow_TrustedChannel_Establishment_Error",
                    status: 7, messages: Self.beforeTheCard, urlPath: nil, urlResult: nil, serverOK: nil),
                reader: E2E.readers[0].name, server: nil)
            for problem in problems { Issue.record(Comment(rawValue: problem)) }
        }

        /// Web-PKI chains as AusweisApp2 judges them (measured by Tests/Support/ausweisapp2_auth_peer_tests.py):
        /// `serve --tls-certificate` with a chain of tls-test-pki.sh (the leaf, then its issuers). An issuer
        /// with basicConstraints CA:FALSE ends the TcToken fetch (no TcToken, so no url); a path length
        /// violation is ignored, as the chain is not trusted anyway, and the authentication succeeds.
        @Test func tlsChainsAreJudgedAsAusweisAppJudgesThem() throws {
            let pki = try Self.tlsPKI.get()
            func serving(_ name: String) throws -> [String] {
                let served = pki.appendingPathComponent("\(name)-served.pem")
                let leaf = try Data(contentsOf: pki.appendingPathComponent("\(name).pem"))
                try (leaf + Data(contentsOf: pki.appendingPathComponent("\(name)-chain.pem"))).write(to: served)
                return ["--tls-certificate", served.path, "--tls-key", pki.appendingPathComponent("\(name).key").path]
            }
            let refused = Expected(
                minor: "/dp#trustedChannelEstablishmentFailed", reason: "Workflow_TrustedChannel_Establishment_Error",
                status: 7, messages: Self.beforeTheCard, urlPath: nil, urlResult: nil, serverOK: nil)
            let accepted = Self.success("pathlen", "").expected
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(reader: reader, port: port)
                defer { card.stop() }
                var problems: [String] = []
                for (name, expected) in [("invalidca", refused), ("pathlen", accepted)] {
                    let server = try TestServerProcess(try serving(name))
                    defer { server.stop() }
                    problems += Self.check(
                        "TLS chain \(name)", url: server.origin + "/tctoken", commands: [Self.accept, Self.pin],
                        expected: expected, reader: reader, server: name == "invalidca" ? nil : server)
                }
                for problem in problems { Issue.record(Comment(rawValue: problem)) }
            }
        }

        /// A tcTokenURL that answers 200 with text that is no TcToken (Tests/Support/https_test_server.py's
        /// /final): refused, no url.
        @Test("EID_CLIENT_A2_12: a tcTokenURL answering text that is no TcToken is refused")
        func aMalformedTcTokenIsRefused() throws {
            let pki = try Self.tlsPKI.get()
            let python = Process()
            python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            python.arguments = [
                E2E.packageRoot.appendingPathComponent("Tests/Support/https_test_server.py").path,
                pki.appendingPathComponent("rsa3072.pem").path, pki.appendingPathComponent("rsa3072.key").path,
                pki.appendingPathComponent("rsa3072.pem").path, pki.appendingPathComponent("rsa3072.key").path,
            ]
            let out = Pipe()
            python.standardOutput = out
            python.standardError = FileHandle.nullDevice
            python.standardInput = FileHandle.nullDevice
            python.currentDirectoryURL = pki
            try python.run()
            defer {
                // SIGKILL: the child inherits the test runner thread's blocked SIGTERM, so
                // terminate() would leave it running and waitUntilExit() would hang.
                kill(python.processIdentifier, SIGKILL)
                python.waitUntilExit()
            }
            var line = Data()
            let deadline = Date(timeIntervalSinceNow: 20)
            while !line.contains(UInt8(ascii: "\n")) && Date() < deadline {
                let chunk = out.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                line += chunk
            }
            let ports = String(decoding: line, as: UTF8.self).split(separator: " ")
            try #require(ports.count == 3 && ports[0] == "PORTS", "https_test_server.py said \(ports)")
            let port = ports[1]
            let problems = Self.check(
                "malformed TcToken", url: "https://127.0.0.1:\(port)/final", commands: [Self.accept, Self.pin],
                expected: Expected(
                    minor: "/dp#trustedChannelEstablishmentFailed",
                    reason: "Workflow_TrustedChannel_Server_Format_Error",
                    status: 6, messages: Self.beforeTheCard, urlPath: nil, urlResult: nil, serverOK: nil),
                reader: E2E.readers[0].name, server: nil)
            for problem in problems { Issue.record(Comment(rawValue: problem)) }
        }

        /// The eID server killed (SIGKILL) while eid waits for the PIN: the next PAOS POST fails.
        @Test func theServerKilledMidPAOS() throws {
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(reader: reader, port: port)
                defer { card.stop() }
                let server = try TestServerProcess()
                defer { server.stop() }
                let auth = try InteractiveRun([
                    "auth", "--json", "--test-pki", "--reader", reader, server.origin + "/tctoken",
                ])
                try auth.expect("ACCESS_RIGHTS")
                auth.send(Self.accept)
                try auth.expect("ENTER_PIN")
                server.kill()
                auth.send(Self.pin)
                let end = auth.finish(timeout: 40)
                #expect(end.status == 7, "\(end.stderr)")
                let last = try jsonObject(try #require(end.lines.last))
                let result = try #require(last["result"] as? [String: Any])
                #expect(result["minor"] as? String == Self.resultMinor + "/dp#trustedChannelEstablishmentFailed")
                #expect(messageNames(end.lines).filter { $0 != "INSERT_CARD" && $0 != "STATUS" } == Self.succeeded)
                let url = last["url"] as? String
                #expect(url?.hasPrefix(server.origin + "/refresh?session=") == true, "\(url ?? "none")")
            }
        }

        /// `tls_changed_after_eac1`, without and with PSK: after its EAC1 the server closes the connection and
        /// serves another certificate (valid for the host, not in CommCertificates) on the next one. AusweisApp2
        /// refuses that handshake (CertificateChecker on each connection; measured by
        /// Tests/Support/ausweisapp2_auth_peer_tests.py): error, trustedChannelEstablishmentFailed, the refresh
        /// address. eid refuses it in the handshake, so the EAC1 answer (after PACE with the PIN) never reaches
        /// the server: no session finishes. A server of its own: the other certificate goes to the next
        /// connection the server accepts, whoever makes it.
        @Test func aTLSCertificateChangedAfterEAC1IsRefusedInTheHandshake() throws {
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(reader: reader, port: port)
                defer { card.stop() }
                let server = try TestServerProcess()
                defer { server.stop() }
                var problems: [String] = []
                for query in ["?fault=tls_changed_after_eac1", "?fault=psk,tls_changed_after_eac1"] {
                    problems += Self.check(
                        query, url: server.origin + "/tctoken" + query, commands: [Self.accept, Self.pin],
                        expected: Expected(
                            minor: "/dp#trustedChannelEstablishmentFailed",
                            reason: "Generic_Send_Receive_Certificate_Error", status: 6, messages: Self.succeeded,
                            urlPath: "/refresh",
                            urlResult: "ResultMajor=error&ResultMinor=trustedChannelEstablishmentFailed",
                            serverOK: nil),
                        reader: reader, server: server)
                }
                let results = try #require(try server.result(session: nil), "no /result")
                #expect(results.contains("no session has finished yet"), "a session went on: \(results)")
                for problem in problems { Issue.record(Comment(rawValue: problem)) }
            }
        }

        /// An http tcTokenURL, inside an activation URL: refused before any connection (exit 6),
        /// no url (there is no TcToken); given directly, an http URL is no tcTokenURL nor an
        /// activation URL: invalid arguments (exit 64, AusweisApp's wrong invocation).
        @Test func anHTTPTcTokenURLIsRefusedUnread() throws {
            let server = try Self.server
            let http = "http://127.0.0.1:\(server.port)/tctoken"
            let activation =
                "http://127.0.0.1:24727/eID-Client?tcTokenURL="
                + (http.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? http)
            var problems = Self.check(
                "http tcTokenURL", url: activation, commands: [Self.accept, Self.pin],
                expected: Expected(
                    minor: "/dp#trustedChannelEstablishmentFailed", reason: "Workflow_Wrong_Parameter_Invocation",
                    status: 6, messages: Self.beforeTheCard, urlPath: nil, urlResult: nil, serverOK: nil),
                reader: E2E.readers[0].name, server: nil)
            problems += Self.check(
                "http URL", url: http, commands: [Self.accept, Self.pin],
                expected: Expected(
                    minor: "/al/common#communicationError", reason: "Workflow_Wrong_Parameter_Invocation",
                    status: 64, messages: Self.beforeTheCard, urlPath: nil, urlResult: nil, serverOK: nil),
                reader: E2E.readers[0].name, server: nil)
            for problem in problems { Issue.record(Comment(rawValue: problem)) }
        }
    }
}

/// Problems found on several threads, recorded afterwards on the test's.
final class Problems: @unchecked Sendable {
    private let lock = Lock()
    private var list: [String] = []

    func add(_ problems: [String]) {
        lock.lock()
        list += problems
        lock.unlock()
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return list
    }
}

/// One `eid-testserver serve` (the `slow` fault's delay 1 s) for the whole suite it is applied to.
struct SharedTestServer: SuiteTrait, TestScoping {
    @TaskLocal static var current: TestServerProcess?

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let server = try TestServerProcess(["--slow-delay", "1"])
        defer { server.stop() }
        try await Self.$current.withValue(server) { try await function() }
    }
}

extension Trait where Self == SharedTestServer {
    static var sharedTestServer: Self { Self() }
}
