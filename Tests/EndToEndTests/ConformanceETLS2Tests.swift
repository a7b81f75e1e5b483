import Foundation
import Testing

/// TR-03124-2 module E on TLS-2, the channel to the eID server with the TcToken's pre-shared key (RSA-PSK):
/// `eid auth` fetches a TcToken from Tests/Support/https_test_server.py (`/tctoken-psk?server=PORT`: its
/// fixed test PSK and session) whose ServerAddress is an `openssl s_server -psk` of the test's own, started
/// with what the TR forbids: only TLS 1.0 or 1.1, only cipher suites outside TR-03124-1, a certificate for
/// another host (SubjectAltName or common name), an RSA key below 3000 bits, an EC key of 192 bits. eid must refuse each, as the TR
/// and AusweisApp2 have it: AUTH with trustedChannelEstablishmentFailed and the TcToken's RefreshAddress,
/// before the card (AusweisApp2 1.26.2 gives the same in every case: Tests/Support/ausweisapp2_auth_peer_tests.py
/// BIN_DIR tls2, measured). s_server's `-state` lines show that it read eid's ClientHello, so no case passes because
/// nothing connected; the control (a server as TR-03124-1 wants it) shows that the same fixture completes the
/// handshake.
extension ThroughPCSCD {
    @Suite struct ConformanceETLS2Tests {
        /// Tests/Support/https_test_server.py's PSK_KEY and SESSION_ID.
        static let psk = "4E1F0C3A5B6D7E8F90A1B2C3D4E5F60718293A4B5C6D7E8F9011223344556677"
        static let session = "0c3a5b6d-e2e-tls2-session"
        /// The RSA-PSK suites of TR-03124-1 (eid's TLS-2 profile), for a server that is otherwise wrong.
        static let conformingSuites = "RSA-PSK-AES256-GCM-SHA384:RSA-PSK-AES256-CBC-SHA"

        /// Certificates made once per run with the openssl CLI: RSA 3072 for 127.0.0.1 (the TcToken server and
        /// the control), RSA 2048 and 1024 and EC P-192 for 127.0.0.1, RSA 3072 for wrong.example in the
        /// SubjectAltName, and RSA 3072 with wrong.example as common name and no SubjectAltName.
        static let certificates: Result<URL, Error> = Result {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("eid-e-tls2-\(getpid())")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            let rsa3072 = ["-newkey", "rsa:3072"]
            let made: [(String, [String], String, String?)] = [
                ("rsa3072", rsa3072, "/CN=127.0.0.1", "subjectAltName=IP:127.0.0.1"),
                ("rsa2048", ["-newkey", "rsa:2048"], "/CN=127.0.0.1", "subjectAltName=IP:127.0.0.1"),
                ("rsa1024", ["-newkey", "rsa:1024"], "/CN=127.0.0.1", "subjectAltName=IP:127.0.0.1"),
                (
                    "ec192", ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime192v1"], "/CN=127.0.0.1",
                    "subjectAltName=IP:127.0.0.1"
                ),
                ("wrongsan", rsa3072, "/CN=127.0.0.1", "subjectAltName=DNS:wrong.example"),
                ("wrongcn", rsa3072, "/CN=wrong.example", nil),
            ]
            for (name, key, subject, addition) in made {
                var arguments =
                    ["req", "-x509"] + key + [
                        "-nodes", "-days", "2", "-subj", subject,
                        "-keyout", dir.appendingPathComponent("\(name).key").path,
                        "-out", dir.appendingPathComponent("\(name).pem").path,
                    ]
                if let addition { arguments += ["-addext", addition] }
                let made = try runProgram("/usr/bin/openssl", arguments, timeout: 120)
                guard made.status == 0 else { throw E2EError.unexpected("openssl req \(name): \(made.stderr)") }
            }
            return dir
        }

        /// One refusal (or the control): s_server's options and what its output must show.
        struct Case: Sendable, CustomStringConvertible {
            var id: String
            var certificate: String
            var options: [String]
            /// Text s_server prints once it has read eid's ClientHello and the refusal (any one of them).
            var evidence: [String]
            /// What eid's error (AUTH's message, standard error) names.
            var eidSays: String
            var description: String { "\(id) \(certificate) \(options.joined(separator: " "))" }
        }

        /// `openssl s_server -psk` for `test`: with `www` it answers each GET with a status page; else it
        /// prints what it receives.
        static func pskServer(_ test: Case, in dir: URL, www: Bool = true) throws -> SServer {
            try SServer(
                [
                    "-cert", dir.appendingPathComponent("\(test.certificate).pem").path,
                    "-key", dir.appendingPathComponent("\(test.certificate).key").path,
                    "-psk", psk, "-psk_identity", session,
                ] + (www ? ["-www"] : []) + test.options, in: dir)
        }

        /// https_test_server.py serving the TcToken (its certificate: rsa3072); its port A.
        final class TcTokenServer {
            let process = Process()
            let port: Substring

            init(_ dir: URL) throws {
                process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
                let cert = dir.appendingPathComponent("rsa3072.pem").path
                let key = dir.appendingPathComponent("rsa3072.key").path
                process.arguments = [
                    E2E.packageRoot.appendingPathComponent("Tests/Support/https_test_server.py").path, cert, key, cert,
                    key,
                ]
                let out = Pipe()
                process.standardOutput = out
                process.standardError = FileHandle.nullDevice
                process.standardInput = FileHandle.nullDevice
                try process.run()
                var line = Data()
                let deadline = Date(timeIntervalSinceNow: 20)
                while !line.contains(UInt8(ascii: "\n")) && Date() < deadline {
                    let chunk = out.fileHandleForReading.availableData
                    if chunk.isEmpty { break }
                    line += chunk
                }
                let words = String(decoding: line, as: UTF8.self).split(separator: " ")
                guard words.count == 3, words[0] == "PORTS" else {
                    kill(process.processIdentifier, SIGKILL)
                    process.waitUntilExit()
                    throw E2EError.unexpected("https_test_server.py said \(words)")
                }
                port = words[1]
            }

            func stop() {
                guard process.isRunning else { return }
                // SIGKILL: the child inherits the test runner thread's blocked SIGTERM.
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }

            deinit { stop() }
        }

        /// Runs `eid auth` against a TcToken pointing at an s_server for `test`; returns eid's run and
        /// s_server's output.
        static func run(_ test: Case, tokens: TcTokenServer, dir: URL) throws -> (RunResult, String) {
            // Not -www: s_server prints whatever it receives, so a request over the refused channel would show.
            let server = try Self.pskServer(test, in: dir, www: false)
            defer { server.stop() }
            let url = "https://127.0.0.1:\(tokens.port)/tctoken-psk?server=\(server.port)"
            let run = try runTool(
                "eid",
                ["auth", "--json", "--test-pki", "--reader", E2E.readers[0].name, "--timeout", "30", url],
                stdin: #"{"cmd":"ACCEPT"}"# + "\n" + #"{"cmd":"SET_PIN","value":"123456"}"# + "\n", timeout: 60)
            // s_server may still be writing what it saw: wait for the end of the connection and the evidence.
            let seen = server.output {
                SServer.sawConnectionEnd($0) && (test.evidence.isEmpty || test.evidence.contains(where: $0.contains))
            }
            return (run, seen)
        }

        static let refusals: [Case] = [
            Case(
                id: "EID_CLIENT_E_07", certificate: "rsa3072",
                options: ["-tls1", "-cipher", "RSA-PSK-AES256-CBC-SHA:@SECLEVEL=0"],
                evidence: [
                    "wrong version number", "protocol version", "unsupported protocol", "no protocols available",
                ],
                eidSays: "unsupported protocol"),
            Case(
                id: "EID_CLIENT_E_07", certificate: "rsa3072",
                options: ["-tls1_1", "-cipher", "RSA-PSK-AES256-CBC-SHA:@SECLEVEL=0"],
                evidence: [
                    "wrong version number", "protocol version", "unsupported protocol", "no protocols available",
                ],
                eidSays: "unsupported protocol"),
            Case(
                id: "EID_CLIENT_E_10", certificate: "rsa3072",
                options: [
                    "-tls1_2", "-cipher",
                    "PSK-AES256-CBC-SHA:PSK-AES128-GCM-SHA256:DHE-PSK-AES256-GCM-SHA384:ECDHE-PSK-AES256-CBC-SHA384:"
                        + "RSA-PSK-NULL-SHA256:RSA-PSK-CAMELLIA256-SHA384:RSA-PSK-CHACHA20-POLY1305:"
                        + "RSA-PSK-3DES-EDE-CBC-SHA:@SECLEVEL=0",
                ],
                evidence: ["no shared cipher"], eidSays: "the TLS handshake failed"),
            Case(
                id: "EID_CLIENT_E_11_a", certificate: "wrongsan", options: ["-tls1_2", "-cipher", conformingSuites],
                evidence: ["alert read:fatal"], eidSays: "not issued for 127.0.0.1"),
            Case(
                id: "EID_CLIENT_E_11_b", certificate: "wrongcn", options: ["-tls1_2", "-cipher", conformingSuites],
                evidence: ["alert read:fatal"], eidSays: "not issued for 127.0.0.1"),
            Case(
                id: "EID_CLIENT_E_12", certificate: "rsa2048", options: ["-tls1_2", "-cipher", conformingSuites],
                evidence: ["alert read", "write finished"], eidSays: "RSA key has 2048 bits"),
            Case(
                id: "EID_CLIENT_E_12", certificate: "rsa1024",
                options: ["-tls1_2", "-cipher", conformingSuites + ":@SECLEVEL=0"],
                evidence: ["alert read:fatal"], eidSays: "key too weak"),
            // An EC key of 192 bits: RSA-PSK needs an RSA key, so the server, which offers ECDHE-PSK and
            // ECDHE-ECDSA as well, shares no suite with eid.
            Case(
                id: "EID_CLIENT_E_12", certificate: "ec192",
                options: [
                    "-tls1_2", "-cipher",
                    conformingSuites + ":ECDHE-PSK-AES128-CBC-SHA256:ECDHE-ECDSA-AES128-GCM-SHA256:@SECLEVEL=0",
                ], evidence: ["no shared cipher"], eidSays: "the TLS handshake failed"),
        ]

        /// What did not hold for one refusal.
        static func problems(_ test: Case, tokens: TcTokenServer, dir: URL) throws -> [String] {
            let (run, seen) = try Self.run(test, tokens: tokens, dir: dir)
            var problems: [String] = []
            func expect(_ condition: Bool, _ what: @autoclosure () -> String) {
                if !condition { problems.append("\(test): \(what())") }
            }
            expect(
                seen.contains("read client hello") || seen.contains("before SSL initialization"),
                "s_server saw no ClientHello: \(seen)")
            expect(test.evidence.contains(where: seen.contains), "s_server shows none of \(test.evidence): \(seen)")
            expect(!seen.contains("PAOS") && !seen.contains("POST"), "eid sent a request over the channel: \(seen)")
            expect(run.stderr.contains(test.eidSays), "eid's error does not say \(test.eidSays): \(run.stderr)")
            expect(run.status != 0, "exit status 0")
            let last = run.stdoutLines.last.flatMap { try? jsonObject($0) } ?? [:]
            let result = last["result"] as? [String: Any] ?? [:]
            expect(
                result["minor"] as? String
                    == "http://www.bsi.bund.de/ecard/api/1.1/resultminor/dp#trustedChannelEstablishmentFailed",
                "AUTH \(run.stdoutLines.last ?? "none")")
            expect(
                last["url"] as? String == "https://127.0.0.1:\(tokens.port)/refresh",
                "url \(last["url"] ?? "none"), not the RefreshAddress")
            expect(
                messageNames(run.stdoutLines).filter { $0 != "STATUS" && $0 != "INSERT_CARD" } == ["AUTH", "AUTH"],
                "messages \(messageNames(run.stdoutLines))")
            expect(!run.stdout.contains(psk) && !run.stderr.contains(psk), "the PSK in eid's output")
            return problems
        }

        /// Runs `id`'s refusals, each against a TcToken server and s_server of its own.
        static func refuse(_ id: String) throws {
            let cases = refusals.filter { $0.id == id }
            #expect(!cases.isEmpty)
            let dir = try certificates.get()
            for test in cases {
                let tokens = try TcTokenServer(dir)
                defer { tokens.stop() }
                for problem in try problems(test, tokens: tokens, dir: dir) { Issue.record(Comment(rawValue: problem)) }
            }
        }

        @Test("EID_CLIENT_E_07: an eID server offering only TLS 1.0 or 1.1 on TLS-2 is refused")
        func tls10And11AreRefused() throws { try Self.refuse("EID_CLIENT_E_07") }

        @Test("EID_CLIENT_E_10: an eID server with only cipher suites outside TR-03124-1 on TLS-2 is refused")
        func foreignSuitesAreRefused() throws { try Self.refuse("EID_CLIENT_E_10") }

        @Test("EID_CLIENT_E_11_a: an eID server certificate for another host (SubjectAltName) on TLS-2 is refused")
        func anotherHostInTheSubjectAltNameIsRefused() throws { try Self.refuse("EID_CLIENT_E_11_a") }

        @Test("EID_CLIENT_E_11_b: an eID server certificate for another host (common name) on TLS-2 is refused")
        func anotherHostInTheCommonNameIsRefused() throws { try Self.refuse("EID_CLIENT_E_11_b") }

        @Test("EID_CLIENT_E_12: an eID server key too small (RSA 2048, RSA 1024, EC 192) on TLS-2 is refused")
        func smallKeysAreRefused() throws { try Self.refuse("EID_CLIENT_E_12") }

        /// The control: the same fixture with a server as TR-03124-1 wants it (TLS 1.2, RSA-PSK, RSA 3072 for
        /// 127.0.0.1) completes the TLS-2 handshake and gets eid's StartPAOS over it (s_server prints what it
        /// receives); then the server goes away and eid ends with an error of its own.
        @Test func aConformingPSKServerCompletesTheHandshakeAndGetsStartPAOS() throws {
            let dir = try Self.certificates.get()
            let tokens = try TcTokenServer(dir)
            defer { tokens.stop() }
            let control = Case(
                id: "control", certificate: "rsa3072", options: ["-tls1_2", "-cipher", Self.conformingSuites],
                evidence: [], eidSays: "")
            let server = try Self.pskServer(control, in: dir, www: false)
            defer { server.stop() }
            let auth = try InteractiveRun([
                "auth", "--json", "--test-pki", "--reader", E2E.readers[0].name,
                "https://127.0.0.1:\(tokens.port)/tctoken-psk?server=\(server.port)",
            ])
            let seen = server.output { $0.contains("StartPAOS") }
            server.stop()
            let end = auth.finish(timeout: 60)
            #expect(seen.contains("write finished") && seen.contains("POST") && seen.contains("StartPAOS"), "\(seen)")
            #expect(seen.contains(Self.session), "the SessionIdentifier of the TcToken in StartPAOS: \(seen)")
            #expect(!seen.contains("alert write:fatal"), "\(seen)")
            #expect(end.status != 0)
        }
    }
}
