import Foundation
import Testing

/// `eid auth --json` with eid-sim in the test pcscd and a real `eid-testserver serve`: the card
/// and the user side of an authentication (wrong PIN, CAN, PUK, CANCEL at every prompt, the card
/// removed at every step, STATUS), each checked on both ends: eid's AUTH message and exit
/// status, and the server's /result.
extension ThroughPCSCD {
    @Suite(
        .enabled(
            if: FileManager.default.isExecutableFile(
                atPath: E2E.binDir.appendingPathComponent("eid-testserver").path),
            "needs the built eid-testserver binary: run `make test`"))
    struct AuthCardFlowTests {
        static func set(_ cmd: String, _ value: String) -> String { #"{"cmd":"\#(cmd)","value":"\#(value)"}"# }
        static let accept = #"{"cmd":"ACCEPT"}"#
        static let cancel = #"{"cmd":"CANCEL"}"#
        static let cancelled = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/sal#cancellationByUser"
        static let secrets = ["123456", "500540", "9876543210", "000000", "000001"]

        /// /result shows that the client reported a cancel in the response the server waited for.
        static func toldTheServer(_ read: String) -> Bool {
            read.hasPrefix(#"{"ok":false"#) && read.contains("client_reported_error")
                && read.contains("sal#cancellationByUser")
        }

        /// The server's refresh address; after a failure without ResultMajor=ok.
        static func isRefreshAddress(_ url: String?, _ port: Substring, failed: Bool) -> Bool {
            guard let url, url.hasPrefix("https://127.0.0.1:\(port)/refresh") else { return false }
            return !failed || !url.contains("ResultMajor=ok")
        }

        /// eid-sim in a reader (with `card` arguments) and a server; `body` gets the reader, the
        /// card, the server and its port.
        func withCardAndServer(
            _ card: [String], _ body: (String, SimulatedCard, AuthAgainstTestServerTests, Substring) throws -> Void
        ) throws {
            try E2E.pool.withReader { reader, port in
                let sim = try SimulatedCard(reader: reader, port: port, arguments: card)
                defer { sim.stop() }
                let server = AuthAgainstTestServerTests()
                try server.withServer { serverPort in try body(reader, sim, server, serverPort) }
            }
        }

        func auth(_ reader: String, _ port: Substring, _ answers: [String]) throws -> RunResult {
            try runTool(
                "eid",
                [
                    "auth", "--json", "--test-pki", "--reader", reader, "--timeout", "10",
                    "https://127.0.0.1:\(port)/tctoken",
                ],
                stdin: answers.map { $0 + "\n" }.joined(), timeout: 60)
        }

        func interactive(_ reader: String, _ port: Substring) throws -> InteractiveRun {
            try InteractiveRun([
                "auth", "--json", "--test-pki", "--reader", reader, "--timeout", "10",
                "https://127.0.0.1:\(port)/tctoken",
            ])
        }

        /// The final AUTH message's result and url.
        func final(_ lines: [String]) throws -> (result: [String: Any], url: String?) {
            let last = try jsonObject(try #require(lines.last))
            #expect(last["msg"] as? String == "AUTH")
            return (try #require(last["result"] as? [String: Any]), last["url"] as? String)
        }

        func expectSuccess(_ run: RunResult, _ server: AuthAgainstTestServerTests, _ port: Substring) throws {
            #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
            let (result, url) = try final(run.stdoutLines)
            #expect((result["major"] as? String)?.hasSuffix("resultmajor#ok") == true)
            #expect(url?.hasPrefix("https://127.0.0.1:\(port)/refresh") == true, "the refresh address: \(url ?? "")")
            let read = try server.result(port: port)
            #expect(read.hasPrefix(#"{"ok":true"#) && read.contains(#""GivenNames":"ERIKA""#), "\(read)")
            for secret in Self.secrets { #expect(!run.stdout.contains(secret) && !run.stderr.contains(secret)) }
        }

        /// The retry counters of the ENTER_* messages named `msg`.
        func counters(_ lines: [String], _ msg: String) throws -> [Int] {
            try lines.map(jsonObject).filter { $0["msg"] as? String == msg }.compactMap {
                cardObject(of: $0)?["retryCounter"] as? Int
            }
        }

        @Test("EID_CLIENT_D_06, EID_CLIENT_D_10: a wrong PIN, then the right one, with the status messages")
        func wrongPINThenRightWithTheStatusMessages() throws {
            try withCardAndServer([]) { reader, _, server, port in
                let run = try auth(
                    reader, port, [Self.accept, Self.set("SET_PIN", "000000"), Self.set("SET_PIN", "123456")])
                try expectSuccess(run, server, port)
                #expect(try counters(run.stdoutLines, "ENTER_PIN") == [3, 2])
                // STATUS as AusweisApp sends it (API level 3): 0 % before the TcToken, 20 % EAC1,
                // 40 % EAC2, 60 % Transmit (once), 80 % before the result, each while the workflow
                // works (state null).
                #expect(
                    messageNames(run.stdoutLines) == [
                        "AUTH", "STATUS", "ACCESS_RIGHTS", "READER", "ENTER_PIN", "ENTER_PIN", "STATUS",
                        "STATUS", "STATUS", "STATUS", "AUTH",
                    ])
                let status = try run.stdoutLines.map(jsonObject).filter { $0["msg"] as? String == "STATUS" }
                #expect(status.compactMap { $0["progress"] as? Int } == [0, 20, 40, 60, 80])
                #expect(status.allSatisfy { $0["workflow"] as? String == "AUTH" })
                #expect(status.allSatisfy { $0["state"] is NSNull })
            }
        }

        @Test("EID_CLIENT_D_13: a suspended PIN takes the CAN, then the PIN")
        func suspendedPINTakesTheCANThenThePIN() throws {
            try withCardAndServer(["--pin-retries", "1"]) { reader, _, server, port in
                let run = try auth(
                    reader, port, [Self.accept, Self.set("SET_CAN", "500540"), Self.set("SET_PIN", "123456")])
                try expectSuccess(run, server, port)
                #expect(messageNames(run.stdoutLines).filter { $0.hasPrefix("ENTER_") } == ["ENTER_CAN", "ENTER_PIN"])
            }
        }

        @Test func blockedPINTakesThePUKThenThePIN() throws {
            try withCardAndServer(["--pin-retries", "0"]) { reader, _, server, port in
                let run = try auth(
                    reader, port, [Self.accept, Self.set("SET_PUK", "9876543210"), Self.set("SET_PIN", "123456")])
                try expectSuccess(run, server, port)
                #expect(messageNames(run.stdoutLines).filter { $0.hasPrefix("ENTER_") } == ["ENTER_PUK", "ENTER_PIN"])
                #expect(try counters(run.stdoutLines, "ENTER_PIN") == [3])
            }
        }

        /// CANCEL (or the end of input) at each prompt: AusweisApp's result for a user cancel,
        /// the refresh address with cancellationByUser, exit status 5, and the server told.
        @Test(
            "EID_CLIENT_A4_10: CANCEL at every prompt before the PIN is entered",
            arguments: [
                ("3", [String](), "ACCESS_RIGHTS", true), ("3", [accept], "ENTER_PIN", true),
                ("1", [accept], "ENTER_CAN", true), ("0", [accept], "ENTER_PUK", true),
                ("3", [accept], "ENTER_PIN", false), ("3", [], "ACCESS_RIGHTS", false),
            ])
        func cancelAtEveryPrompt(retries: String, before: [String], prompt: String, sendCancel: Bool) throws {
            try withCardAndServer(["--pin-retries", retries]) { reader, _, server, port in
                let run = try interactive(reader, port)
                before.forEach(run.send)
                try run.expect(prompt)
                if sendCancel { run.send(Self.cancel) }
                let (status, lines, stderr) = run.finish(timeout: 30)
                #expect(status == 5, "\(lines) \(stderr)")
                let (result, url) = try final(lines)
                #expect((result["major"] as? String)?.hasSuffix("resultmajor#error") == true)
                #expect(result["minor"] as? String == Self.cancelled)
                #expect(result["description"] as? String == "The process has been cancelled.")
                // The refresh address, as AusweisApp gives it after its TLS check of the address
                // (whether result parameters are appended in SDK mode is the URL rules' business).
                #expect(Self.isRefreshAddress(url, port, failed: true), "\(url ?? "")")
                let read = try server.result(port: port)
                #expect(Self.toldTheServer(read), "the server learnt of the cancel: \(read)")
                #expect(messageNames(lines).suffix(2) == ["STATUS", "AUTH"])
            }
        }

        /// The card is pulled out at the PIN prompt (before PACE): a clear result at once.
        @Test func cardRemovedBeforePACE() throws {
            try withCardAndServer([]) { reader, card, server, port in
                let run = try interactive(reader, port)
                run.send(Self.accept)
                try run.expect("ENTER_PIN")
                card.stop()
                run.send(Self.set("SET_PIN", "123456"))
                try expectCardRemoved(run.finish(timeout: 30), server, port)
            }
        }

        /// The card leaves after `n` APDUs of a whole authentication's trace: after PACE during
        /// EAC (at GET CHALLENGE), or in the middle of the server's Transmit.
        @Test(arguments: ["after PACE", "mid-Transmit"])
        func cardRemovedDuringTheSession(when: String) throws {
            // One whole authentication with --trace gives the APDU numbers.
            var trace: [Substring] = []
            try withCardAndServer(["--trace"]) { reader, card, server, port in
                try expectSuccess(try auth(reader, port, [Self.accept, Self.set("SET_PIN", "123456")]), server, port)
                trace = card.stop().1.split(separator: "\n").filter { $0.contains("eid-sim: apdu ") }
            }
            let getChallenge = try #require(trace.firstIndex { $0.contains("ins=84") })
            let n = when == "after PACE" ? getChallenge : trace.count - 3
            try withCardAndServer(["--vanish-after", "\(n)"]) { reader, _, server, port in
                let run = try auth(reader, port, [Self.accept, Self.set("SET_PIN", "123456")])
                try expectCardRemoved((run.status, run.stdoutLines, run.stderr), server, port)
            }
        }

        func expectCardRemoved(
            _ end: (status: Int32, lines: [String], stderr: String), _ server: AuthAgainstTestServerTests,
            _ port: Substring
        ) throws {
            #expect(end.status == 4, "\(end.lines) \(end.stderr)")
            let (result, url) = try final(end.lines)
            #expect((result["major"] as? String)?.hasSuffix("resultmajor#error") == true)
            // AusweisApp treats a removed card as a cancel (docs/protocol.md, "How AusweisApp reports each failure").
            #expect(result["minor"] as? String == Self.cancelled)
            #expect(Self.isRefreshAddress(url, port, failed: true), "\(url ?? "")")
            #expect(end.stderr.contains("removed"), "\(end.stderr)")
            let read = try server.result(port: port)
            #expect(Self.toldTheServer(read), "\(read)")
            for secret in Self.secrets { #expect(!end.stderr.contains(secret)) }
        }
    }
}
