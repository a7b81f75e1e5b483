import Foundation
import Testing

/// `eid readers` against the real pcscd with vpcd readers and eid-sim cards.
extension ThroughPCSCD {
    @Suite struct ReadersTests {
        @Test func jsonShowsTheRetryCounter() throws {
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(reader: reader, port: port, arguments: ["--pin-retries", "2"])
                defer { card.stop() }
                let result = try runTool("eid", ["readers", "--json"])
                #expect(result.status == 0)
                #expect(result.stdoutLines.count == 1, "exactly one line on stdout")
                let object = try jsonObject(result.stdoutLines.first ?? "")
                #expect(object["msg"] as? String == "READER_LIST")
                let entry = try readerEntry(reader, in: result.stdout)
                #expect(entry["attached"] as? Bool == true)
                #expect(entry["keypad"] as? Bool == false)
                let info = try #require(entry["card"] as? [String: Any])
                #expect(info["retryCounter"] as? Int == 2)
                #expect(info["inoperative"] as? Bool == false)
                #expect(info["deactivated"] as? Bool == false)
            }
        }

        @Test(arguments: [0, 1, 3])
        func retryCounters(retries: Int) throws {
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(reader: reader, port: port, arguments: ["--pin-retries", "\(retries)"])
                defer { card.stop() }
                let entry = try readerEntry(reader, in: try runTool("eid", ["readers", "--json"]).stdout)
                let info = try #require(entry["card"] as? [String: Any])
                #expect(info["retryCounter"] as? Int == retries)
                #expect(info["deactivated"] as? Bool == false)
            }
        }

        @Test func deactivatedCard() throws {
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(reader: reader, port: port, arguments: ["--deactivated"])
                defer { card.stop() }
                let entry = try readerEntry(reader, in: try runTool("eid", ["readers", "--json"]).stdout)
                let info = try #require(entry["card"] as? [String: Any])
                #expect(info["deactivated"] as? Bool == true)
                #expect(info["inoperative"] as? Bool == false)
            }
        }

        @Test func readerWithoutCardHasCardNull() throws {
            try E2E.pool.withReader { reader, _ in
                let entry = try readerEntry(reader, in: try runTool("eid", ["readers", "--json"]).stdout)
                #expect(entry["card"] is NSNull)
            }
        }

        @Test func humanTableFitsEightyColumns() throws {
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(reader: reader, port: port, arguments: ["--pin-retries", "1"])
                defer { card.stop() }
                let result = try runTool("eid", ["readers"])
                #expect(result.status == 0)
                let lines = result.stdoutLines
                #expect(lines.first?.hasPrefix("READER") == true)
                for line in lines { #expect(line.count <= 80, "\(line)") }
                #expect(lines.contains { $0.hasPrefix(reader) && $0.hasSuffix("PIN suspended — enter the CAN first") })
            }
        }

        @Test func cardWithGarbageCardAccessIsNotAnEIDCard() throws {
            try E2E.pool.withReader { reader, port in
                let profile = FileManager.default.temporaryDirectory.appendingPathComponent("garbage-\(port).json")
                try Data(#"{"cardAccess": "3114300f0601"}"#.utf8).write(to: profile)
                let card = try SimulatedCard(reader: reader, port: port, arguments: ["--profile", profile.path])
                defer { card.stop() }
                let entry = try readerEntry(reader, in: try runTool("eid", ["readers", "--json"]).stdout)
                let info = try #require(entry["card"] as? [String: Any])
                #expect(info.isEmpty, "an unknown card is {}")
                let human = try runTool("eid", ["readers"]).stdoutLines
                #expect(human.contains { $0.hasPrefix(reader) && $0.hasSuffix("not an eID card") })
            }
        }

        @Test func simulatorWorksWithoutPCSCD() throws {
            let result = try runTool(
                "eid", ["readers", "--simulator", "--json"],
                environment: ["PCSCLITE_CSOCK_NAME": "/nonexistent/pcscd.comm"])
            #expect(result.status == 0)
            #expect(result.stdoutLines.count == 1)
            let entry = try readerEntry("Simulator", in: result.stdout)
            let info = try #require(entry["card"] as? [String: Any])
            #expect(info["retryCounter"] as? Int == 3)
        }

        @Test func pcscdNotRunningIsOneClearSentence() throws {
            for args in [["readers"], ["readers", "--json"]] {
                let result = try runTool("eid", args, environment: ["PCSCLITE_CSOCK_NAME": "/nonexistent/pcscd.comm"])
                #expect(result.status == 3)
                #expect(result.stdout.isEmpty)
                #expect(result.stderr.contains("pcscd"))
                #expect(
                    result.stderr.split(separator: "\n").count == 1, "one sentence, no stack trace: \(result.stderr)")
            }
        }

        @Test func noReaderFound() throws {
            let env = ["PCSCLITE_CSOCK_NAME": E2E.emptySocket]
            let human = try runTool("eid", ["readers"], environment: env)
            #expect(human.status == 0)
            #expect(human.stdout == "no card reader found\n")
            #expect(human.stderr.contains("hint"))
            let json = try runTool("eid", ["readers", "--json"], environment: env)
            #expect(json.status == 0)
            #expect(json.stdout == #"{"msg":"READER_LIST","readers":[]}"# + "\n")
        }

        @Test func watchReportsInsertionAndRemovalUntilSIGTERM() throws {
            try E2E.pool.withReader { reader, port in
                let watch = try InteractiveRun(["readers", "--watch", "--json"])
                defer { if watch.process.isRunning { watch.process.terminate() } }
                var mine: [[String: Any]] = []
                /// The card of the next READER message about this reader (others may change
                /// their cards meanwhile).
                func nextCard() throws -> Any? {
                    while true {
                        let message = try watch.next()
                        if message["name"] as? String == reader {
                            mine.append(message)
                            return message["card"] as Any?
                        }
                    }
                }
                #expect(try nextCard() is NSNull, "starts without a card")
                // The watch alone looks for the card: a second eid reading it at the same moment
                // (SimulatedCard's own wait) would hold it, and the watch would rightly show a
                // card in use, `{}`.
                let card = try SimulatedCard(
                    reader: reader, port: port, arguments: ["--pin-retries", "2"], waitForCard: false)
                // The card stays until the watch has told it: one pulled while eid reads it is
                // rightly told as no card at all.
                let told = try nextCard()
                #expect(
                    (told as? [String: Any])?["retryCounter"] as? Int == 2, "sees the card: \(String(describing: told))"
                )
                card.stop()
                try card.waitForCard(present: false)
                #expect(try nextCard() is NSNull, "sees it go")
                watch.process.terminate()  // SIGTERM
                let end = watch.finish()
                #expect(end.status == 0)
                #expect(mine.allSatisfy { $0["msg"] as? String == "READER" })
                let all = try end.lines.map(jsonObject).filter { $0["name"] as? String == reader }
                #expect(all.count == mine.count, "nothing more about the reader after its card went: \(end.lines)")
            }
        }
    }
}
