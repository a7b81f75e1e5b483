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
            #expect(json.stdout == #"{"msg":"READER_LIST","reader":[]}"# + "\n")
        }

        @Test func watchReportsInsertionAndRemovalUntilSIGTERM() throws {
            try E2E.pool.withReader { reader, port in
                let watch = Process()
                watch.executableURL = E2E.binDir.appendingPathComponent("eid")
                watch.arguments = ["readers", "--watch", "--json"]
                let out = Pipe()
                watch.standardOutput = out
                watch.standardError = FileHandle.nullDevice
                try watch.run()
                defer { if watch.isRunning { watch.terminate() } }
                usleep(500_000)
                let card = try SimulatedCard(reader: reader, port: port, arguments: ["--pin-retries", "2"])
                card.stop()
                try card.waitForCard(present: false)
                usleep(800_000)
                watch.terminate()  // SIGTERM
                watch.waitUntilExit()
                #expect(watch.terminationStatus == 0)
                let lines = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                    .split(separator: "\n").map(String.init)
                let mine = try lines.map(jsonObject).filter { $0["name"] as? String == reader }
                #expect(mine.allSatisfy { $0["msg"] as? String == "READER" })
                let cards = mine.map { $0["card"] }
                #expect(cards.first.map { $0 is NSNull } == true, "starts without a card")
                #expect(
                    cards.contains { ($0 as? [String: Any])?["retryCounter"] as? Int == 2 }, "sees the card: \(lines)")
                #expect(cards.last.map { $0 is NSNull } == true, "sees it go")
            }
        }
    }
}
