import Foundation
import TestPKI
import Testing

/// TR-03124-2 module C3 (certificate chain handling), each case a run of the built binaries: `eid auth --json
/// --trust-cvca CVCA_b` with eid-sim (`--cvca CVCA_r`, `--trace`) as the card in the test pcscd, against
/// `eid-testserver serve --cvca-generation S --eac1-links-from B`, whose DV and AT are issued under
/// generation s of the test CVCA series (`TestCVCAGenerations`, CERT_SET_4's CERT_CV_CVCA_4_1 … _s). EAC1
/// carries the link certificates from generation B on (1: the full chain, s: none); when eid's EAC1 output
/// names the card's CAR (its chain did not reach the card's trust point), EAC2 carries the older ones.
///
/// Every case must end with AUTH ok and the server's `/result` ok with the data read; the CARs eid named
/// (`/result`'s certificationAuthorityReferences) and the certificates the card verified (PSO:Verify
/// Certificate, `apdu ins=2A sw=9000` in eid-sim's trace) show which chain eid sent: only the link
/// certificates after the card's trust point, then DV and AT. Where a link moved the card's trust point on,
/// a second run against a server that sends no link certificate shows that the card trusts generation s
/// now, as a real card does: eid names no CAR and the card verifies DV and AT alone.
///
/// AusweisApp2 1.26.2 (pre-verification off) gives the same in every case: ok, the same CARs, the same number of
/// certificates verified by the card (Tests/Support/ausweisapp2_auth_peer_tests.py BIN_DIR c3, measured).
///
/// The TR's NO_PREVERIFICATION cases (C3_03, C3_06) are run with eid's trust store holding CVCA_s (b = s),
/// as C3_08 has it: eid pre-verifies every chain (as AusweisApp does with pre-verification on).
extension ThroughPCSCD {
    @Suite(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: E2E.binDir.appendingPathComponent("eid-testserver").path),
            "needs the built eid-testserver binary: run `make test`"))
    struct ConformanceC3Tests {
        /// One run: the card's trust points (eid-sim's --cvca, the current one first), eid's trust anchor, the
        /// server's s and B; what must show.
        struct Run: CustomStringConvertible {
            var card: [Int]
            var clientTrusts: Int
            var newest: Int
            var eac1From: Int
            /// The CAR eid's EAC1 output must name (nil: none).
            var namedCAR: Int?
            /// How many certificates the card verifies (link certificates, DV, AT).
            var verified: Int
            var description: String {
                "card \(card), eid trusts \(clientTrusts), server s=\(newest) B=\(eac1From)"
            }
        }

        /// The second run of a card whose trust point moved on to s: no link certificate in EAC1, eid trusting s.
        static func afterUpdate(_ newest: Int, card: [Int]) -> Run {
            Run(card: card, clientTrusts: newest, newest: newest, eac1From: newest, namedCAR: nil, verified: 2)
        }

        /// Writes generation `generation` of the test CVCA series (self-signed) for eid-sim and eid.
        static func cvcaFile(_ generation: Int, in directory: URL) throws -> String {
            let file = directory.appendingPathComponent("cvca-\(generation).cvcert")
            try Data(try TestCVCAGenerations.authority(generation).certificate.encoded).write(to: file)
            return file.path
        }

        /// Runs `runs` one after another with one eid-sim, whose trust points are `runs[0].card`'s; returns
        /// what did not hold.
        static func check(_ name: String, _ runs: [Run]) throws -> [String] {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("eid-c3-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            var problems: [String] = []
            let cardArguments = try runs[0].card.flatMap { ["--cvca", try cvcaFile($0, in: directory)] }
            let trace = try E2E.pool.withReader { reader, port -> String in
                let card = try SimulatedCard(reader: reader, port: port, arguments: ["--trace"] + cardArguments)
                defer { card.stop() }
                for (index, run) in runs.enumerated() {
                    let label = "\(name) run \(index + 1) (\(run))"
                    let server = try TestServerProcess([
                        "--cvca-generation", "\(run.newest)", "--eac1-links-from", "\(run.eac1From)",
                    ])
                    defer { server.stop() }
                    problems += try authenticate(
                        label, server: server, reader: reader,
                        trusting: try cvcaFile(run.clientTrusts, in: directory), expected: run)
                }
                return card.stop().1
            }
            let verified = trace.split(separator: "\n").filter { $0.contains("apdu ins=2A") }
            let expected = runs.map(\.verified).reduce(0, +)
            if verified.count != expected || !verified.allSatisfy({ $0.hasSuffix("sw=9000") }) {
                problems.append("\(name): the card verified \(verified), not \(expected) certificates with 9000")
            }
            return problems
        }

        /// `eid auth --json` against `server` in `reader`, trusting the CVCA file `anchor`: ACCEPT, then the PIN.
        static func runAuth(server: TestServerProcess, reader: String, trusting anchor: String) throws -> RunResult {
            let commands = [#"{"cmd":"ACCEPT"}"#, #"{"cmd":"SET_PIN","value":"123456"}"#]
            return try runTool(
                "eid",
                [
                    "auth", "--json", "--trust-cvca", anchor, "--reader", reader, "--timeout", "30",
                    server.origin + "/tctoken",
                ],
                stdin: commands.map { $0 + "\n" }.joined(), timeout: 90)
        }

        /// One `eid auth` against `server`; what did not hold.
        static func authenticate(
            _ label: String, server: TestServerProcess, reader: String, trusting anchor: String, expected: Run
        ) throws -> [String] {
            var problems: [String] = []
            let run = try runAuth(server: server, reader: reader, trusting: anchor)
            let last = run.stdoutLines.last.flatMap { try? jsonObject($0) }
            let result = last?["result"] as? [String: Any] ?? [:]
            if run.status != 0 || (result["major"] as? String)?.hasSuffix("resultmajor#ok") != true {
                problems.append(
                    "\(label): exit \(run.status), last line \(run.stdoutLines.last ?? "none"); \(run.stderr)")
            }
            guard let url = last?["url"] as? String, let session = url.split(separator: "session=").last else {
                return problems + ["\(label): no session in AUTH's url"]
            }
            var text: String?
            _ = try eventually {
                text = try server.result(session: String(session.prefix { $0 != "&" }))
                return text != nil
            }
            let json = text.flatMap { try? jsonObject($0) } ?? [:]
            if json["ok"] as? Bool != true || (json["read"] as? [String: Any])?["GivenNames"] == nil {
                problems.append("\(label): /result \(text ?? "none")")
            }
            let named = json["certificationAuthorityReferences"] as? [String] ?? ["(missing)"]
            let expectedCARs = expected.namedCAR.map { [TestCVCAGenerations.holderReference($0)] } ?? []
            if expectedCARs.isEmpty ? !named.isEmpty : !expectedCARs.allSatisfy(named.contains) {
                problems.append("\(label): eid named the CARs \(named), not \(expectedCARs)")
            }
            return problems
        }

        static func record(_ problems: [String]) {
            for problem in problems { Issue.record(Comment(rawValue: problem)) }
        }

        @Test(
            """
            EID_CLIENT_C3_01, EID_CLIENT_B_27: an old trust point and the full link chain in EAC1: eid pre-verifies \
            through the links, the card gets those after its trust point
            """,
            arguments: [2, 3, 4, 5, 6, 7])
        func oldTrustPointFullChain(newest: Int) throws {
            // r = 1, every link (s − 1 of them) to the card, which then trusts s.
            let first = Run(
                card: [1], clientTrusts: 1, newest: newest, eac1From: 1, namedCAR: nil, verified: newest + 1)
            Self.record(try Self.check("C3_01 s=\(newest)", [first, Self.afterUpdate(newest, card: [1])]))
        }

        @Test("EID_CLIENT_C3_01: a card trusting generation r = 3 of 6 gets only the links to 4, 5 and 6")
        func oldTrustPointInsideTheChain() throws {
            let first = Run(card: [3], clientTrusts: 1, newest: 6, eac1From: 1, namedCAR: nil, verified: 5)
            Self.record(try Self.check("C3_01 r=3", [first, Self.afterUpdate(6, card: [3])]))
        }

        @Test("EID_CLIENT_C3_02: an old trust point and the minimal chain for pre-verification: EAC2's links")
        func oldTrustPointMinimalChain() throws {
            // eid trusts b = 3, the card r = 1 < b: EAC1 carries the links to 4 and 5; eid names CAR 1 and
            // EAC2 brings the links to 2 and 3.
            let first = Run(card: [1], clientTrusts: 3, newest: 5, eac1From: 3, namedCAR: 1, verified: 6)
            Self.record(try Self.check("C3_02", [first, Self.afterUpdate(5, card: [1])]))
        }

        @Test("EID_CLIENT_C3_03: an old trust point and no link certificate in EAC1: all links come in EAC2")
        func oldTrustPointNoLinksInEAC1() throws {
            let first = Run(card: [2], clientTrusts: 4, newest: 4, eac1From: 4, namedCAR: 2, verified: 4)
            Self.record(try Self.check("C3_03", [first, Self.afterUpdate(4, card: [2])]))
        }

        @Test("EID_CLIENT_C3_04: the two newest trust points and the full chain: DV and AT only")
        func twoNewestTrustPointsFullChain() throws {
            let run = Run(card: [5, 4], clientTrusts: 1, newest: 5, eac1From: 1, namedCAR: nil, verified: 2)
            Self.record(try Self.check("C3_04", [run]))
        }

        @Test("EID_CLIENT_C3_05: the two newest trust points and the minimal chain: DV and AT only")
        func twoNewestTrustPointsMinimalChain() throws {
            let run = Run(card: [5, 4], clientTrusts: 3, newest: 5, eac1From: 3, namedCAR: nil, verified: 2)
            Self.record(try Self.check("C3_05", [run]))
        }

        @Test("EID_CLIENT_C3_06: the two newest trust points and no link certificate: DV and AT only")
        func twoNewestTrustPointsNoLinks() throws {
            let run = Run(card: [5, 4], clientTrusts: 5, newest: 5, eac1From: 5, namedCAR: nil, verified: 2)
            Self.record(try Self.check("C3_06", [run]))
        }

        /// Why the TR's NO_PREVERIFICATION cases (B_08, B_30, C3_03, C3_06) do not apply: they are for a client
        /// that hands the server's chain to the card unchecked, names the card's CAR and leaves it to the card
        /// (AusweisApp2 with pre-verification off succeeds so in C3_03). eid has no such mode: it pre-verifies
        /// every chain against its own trust point first. Here C3_03's chain (no link certificate in EAC1, the
        /// card at generation 2 of 4) with eid trusting the card's generation 2 too: the chain does not reach
        /// it, so eid refuses before it asks for the PIN, and the card gets no PACE with a CHAT and no
        /// certificate.
        @Test(
            """
            EID_CLIENT_B_08, EID_CLIENT_B_30, EID_CLIENT_C3_03, EID_CLIENT_C3_06: n.a. (profile NO_PREVERIFICATION): \
            eid pre-verifies every chain, and refuses one its trust point does not reach before the card
            """
        )
        func aChainPreVerificationCannotReachIsRefusedBeforeTheCard() throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("eid-c3-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let anchor = try Self.cvcaFile(2, in: directory)
            let (run, trace): (RunResult, String) = try E2E.pool.withReader { reader, port -> (RunResult, String) in
                let card = try SimulatedCard(reader: reader, port: port, arguments: ["--trace", "--cvca", anchor])
                defer { card.stop() }
                let server = try TestServerProcess(["--cvca-generation", "4", "--eac1-links-from", "4"])
                defer { server.stop() }
                let run = try Self.runAuth(server: server, reader: reader, trusting: anchor)
                return (run, card.stop().1)
            }
            let last: [String: Any]? = run.stdoutLines.last.flatMap { try? jsonObject($0) }
            let result = last?["result"] as? [String: Any] ?? [:]
            let minor = result["minor"] as? String ?? "none"
            let reason = result["reason"] as? String ?? "none"
            #expect(run.status == 6, "exit \(run.status); \(run.stderr)")
            #expect(minor == AuthFaultsTests.resultMinor + "/il/signature#invalidCertificatePath", "minor \(minor)")
            #expect(reason.hasPrefix("Pre_Verification_"), "reason \(reason)")
            #expect(!messageNames(run.stdoutLines).contains("ENTER_PIN"), "\(run.stdout)")
            let lines: [String] = trace.split(separator: "\n").map(String.init)
            let reached = lines.filter { $0.contains(" chat=") || $0.contains("apdu ins=2A") }
            #expect(reached.isEmpty, "the card got \(reached)")
        }

        @Test("EID_CLIENT_C3_07: a new trust point and the full chain: DV and AT only")
        func newTrustPointFullChain() throws {
            let run = Run(card: [4], clientTrusts: 1, newest: 4, eac1From: 1, namedCAR: nil, verified: 2)
            Self.record(try Self.check("C3_07", [run]))
        }

        @Test("EID_CLIENT_C3_08: a new trust point and no link certificate: DV and AT only")
        func newTrustPointNoLinks() throws {
            let run = Run(card: [4], clientTrusts: 4, newest: 4, eac1From: 4, namedCAR: nil, verified: 2)
            Self.record(try Self.check("C3_08", [run]))
        }
    }
}
