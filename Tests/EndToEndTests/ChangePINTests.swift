import Foundation
import Testing

/// `eid change-pin --json` against eid-sim in the real pcscd, from the acceptance list of the
/// change PIN issue.
extension ThroughPCSCD {
    @Suite struct ChangePINTests {
        static func set(_ cmd: String, _ value: String) -> String { #"{"cmd":"\#(cmd)","value":"\#(value)"}"# }
        static let cancel = #"{"cmd":"CANCEL"}"#

        /// Runs change-pin with all answers piped in ahead.
        func changePIN(_ reader: String, _ answers: [String], timeout: Double = 20) throws -> RunResult {
            try runTool(
                "eid", ["change-pin", "--json", "--reader", reader, "--timeout", "10"],
                stdin: answers.map { $0 + "\n" }.joined(), timeout: timeout)
        }

        func retryCounter(_ reader: String) throws -> Int? {
            let entry = try readerEntry(reader, in: try runTool("eid", ["readers", "--json"]).stdout)
            return (entry["card"] as? [String: Any])?["retryCounter"] as? Int
        }

        @Test("EID_CLIENT_D_11: the transport PIN is replaced (PIN management)")
        func transportPINIsReplaced() throws {
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(
                    reader: reader, port: port, arguments: ["--pin", "12345", "--transport-pin"])
                defer { card.stop() }
                let result = try changePIN(reader, [Self.set("SET_PIN", "12345"), Self.set("SET_NEW_PIN", "654321")])
                #expect(result.status == 0, "\(result.stderr)")
                #expect(result.stdoutLines.first == #"{"msg":"CHANGE_PIN"}"#)
                #expect(result.stdoutLines.last == #"{"msg":"CHANGE_PIN","success":true}"#)
                #expect(
                    messageNames(result.stdoutLines) == [
                        "CHANGE_PIN", "READER", "ENTER_PIN", "ENTER_NEW_PIN", "CHANGE_PIN",
                    ])
                #expect(try retryCounter(reader) == 3)
                // The new PIN works, and the transport PIN no longer does.
                let again = try changePIN(reader, [Self.set("SET_PIN", "654321"), Self.set("SET_NEW_PIN", "111222")])
                #expect(again.stdoutLines.last == #"{"msg":"CHANGE_PIN","success":true}"#)
                let old = try changePIN(reader, [Self.set("SET_PIN", "12345")])
                #expect(
                    messageNames(old.stdoutLines).filter { $0 == "ENTER_PIN" }.count == 2,
                    "the transport PIN is refused")
                #expect(try retryCounter(reader) == 2)
            }
        }

        /// Piped commands are checked when the workflow asks: a SET_NEW_PIN sent before SET_PIN
        /// gets BAD_STATE at ENTER_PIN (AusweisApp2's answer), GET_API_LEVEL is answered at once.
        @Test func pipedCommandsAreCheckedAgainstTheQuestion() throws {
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(reader: reader, port: port)
                defer { card.stop() }
                let result = try changePIN(
                    reader,
                    [
                        Self.set("SET_NEW_PIN", "654321"), #"{"cmd":"GET_API_LEVEL"}"#, Self.set("SET_PIN", "123456"),
                        Self.set("SET_NEW_PIN", "654321"),
                    ])
                #expect(result.status == 0, "\(result.stderr)")
                #expect(
                    messageNames(result.stdoutLines) == [
                        "CHANGE_PIN", "READER", "ENTER_PIN", "BAD_STATE", "API_LEVEL", "ENTER_NEW_PIN", "CHANGE_PIN",
                    ])
                #expect(result.stdoutLines.contains(#"{"msg":"BAD_STATE","error":"SET_NEW_PIN"}"#))
                #expect(result.stdoutLines.contains(#"{"msg":"API_LEVEL","available":[1,2,3],"current":3}"#))
            }
        }

        @Test func pinIsChangedAfterOneWrongAttempt() throws {
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(reader: reader, port: port)
                defer { card.stop() }
                let result = try changePIN(
                    reader,
                    [
                        Self.set("SET_PIN", "000000"), Self.set("SET_PIN", "123456"), Self.set("SET_NEW_PIN", "654321"),
                    ])
                #expect(result.status == 0)
                let enters = try result.stdoutLines.map(jsonObject).filter { $0["msg"] as? String == "ENTER_PIN" }
                #expect(enters.compactMap { cardObject(of: $0)?["retryCounter"] as? Int } == [3, 2])
                #expect(result.stdoutLines.last == #"{"msg":"CHANGE_PIN","success":true}"#)
                #expect(try retryCounter(reader) == 3)
            }
        }

        @Test func twoWrongPINsThenWrongAndRightCANThenPIN() throws {
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(reader: reader, port: port)
                defer { card.stop() }
                let result = try changePIN(
                    reader,
                    [
                        Self.set("SET_PIN", "000000"), Self.set("SET_PIN", "000001"), Self.set("SET_CAN", "000000"),
                        Self.set("SET_CAN", "500540"), Self.set("SET_PIN", "123456"), Self.set("SET_NEW_PIN", "654321"),
                    ])
                #expect(result.status == 0, "\(result.stdout)")
                #expect(
                    messageNames(result.stdoutLines) == [
                        "CHANGE_PIN", "READER", "ENTER_PIN", "ENTER_PIN", "ENTER_CAN", "ENTER_CAN", "ENTER_PIN",
                        "ENTER_NEW_PIN",
                        "CHANGE_PIN",
                    ])
                let lastPIN = try result.stdoutLines.map(jsonObject).last { $0["msg"] as? String == "ENTER_PIN" }
                #expect(lastPIN.flatMap { cardObject(of: $0)?["retryCounter"] as? Int } == 1)
                #expect(try retryCounter(reader) == 3)
            }
        }

        @Test func threeWrongPINsThenPUKThenPIN() throws {
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(reader: reader, port: port)
                defer { card.stop() }
                let result = try changePIN(
                    reader,
                    [
                        Self.set("SET_PIN", "000000"), Self.set("SET_PIN", "000001"), Self.set("SET_CAN", "500540"),
                        Self.set("SET_PIN", "000002"), Self.set("SET_PUK", "9876543210"), Self.set("SET_PIN", "123456"),
                        Self.set("SET_NEW_PIN", "654321"),
                    ])
                #expect(result.status == 0, "\(result.stdout)")
                #expect(
                    messageNames(result.stdoutLines).filter { $0.hasPrefix("ENTER_") } == [
                        "ENTER_PIN", "ENTER_PIN", "ENTER_CAN", "ENTER_PIN", "ENTER_PUK", "ENTER_PIN", "ENTER_NEW_PIN",
                    ])
                #expect(try retryCounter(reader) == 3)
            }
        }

        @Test(arguments: [("1", "ENTER_CAN"), ("0", "ENTER_PUK"), ("2", "ENTER_PIN")])
        func firstRequestFollowsTheRetryCounter(retries: String, expected: String) throws {
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(reader: reader, port: port, arguments: ["--pin-retries", retries])
                defer { card.stop() }
                let result = try changePIN(reader, [])
                #expect(messageNames(result.stdoutLines).first { $0.hasPrefix("ENTER_") } == expected)
                #expect(result.status == 5, "end of input cancels")
                #expect(
                    result.stdoutLines.last
                        == #"{"msg":"CHANGE_PIN","success":false,"reason":"Change_Pin_User_Cancelled"}"#)
            }
        }

        @Test func inoperativePUKIsFinal() throws {
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(
                    reader: reader, port: port, arguments: ["--pin-retries", "0", "--puk-uses-left", "0"])
                defer { card.stop() }
                let result = try changePIN(reader, [Self.set("SET_PUK", "9876543210"), Self.set("SET_PIN", "123456")])
                #expect(result.status == 2)
                let messages = try result.stdoutLines.map(jsonObject)
                #expect(messages.filter { $0["msg"] as? String == "ENTER_PUK" }.count == 1)
                // Shown as AusweisApp2 shows it: READER with inoperative, then the end.
                let shown = messages.filter { $0["msg"] as? String == "READER" }
                #expect(shown.last.flatMap { cardObject(of: $0)?["inoperative"] as? Bool } == true)
                #expect(messageNames(result.stdoutLines).filter { $0 == "ENTER_PIN" }.isEmpty)
                #expect(
                    result.stdoutLines.last
                        == #"{"msg":"CHANGE_PIN","success":false,"reason":"Establish_Pace_Channel_Puk_Inoperative"}"#)
                #expect(result.stderr.contains("PUK"))
            }
        }

        @Test func deactivatedCardAsksForNothingAndCancelEndsIt() throws {
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(reader: reader, port: port, arguments: ["--deactivated"])
                defer { card.stop() }
                let run = try InteractiveRun(["change-pin", "--json", "--reader", reader, "--timeout", "10"])
                #expect(try run.next()["msg"] as? String == "CHANGE_PIN")
                let shown = try run.expect("READER")
                #expect(cardObject(of: shown)?["deactivated"] as? Bool == true)
                run.send(Self.cancel)
                let (status, lines, _) = run.finish()
                #expect(status == 5)
                #expect(!messageNames(lines).contains { $0.hasPrefix("ENTER_") })
                #expect(lines.last == #"{"msg":"CHANGE_PIN","success":false,"reason":"Change_Pin_User_Cancelled"}"#)
            }
        }

        @Test(arguments: ["12a456", "1234", "1234567", "", "12 456"])
        func invalidPINIsRefusedBeforeTheCard(value: String) throws {
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(reader: reader, port: port, arguments: ["--trace"])
                defer { card.stop() }
                let result = try changePIN(reader, [Self.set("SET_PIN", value)])
                let enters = try result.stdoutLines.map(jsonObject).filter { $0["msg"] as? String == "ENTER_PIN" }
                #expect(enters.count == 2)
                #expect(enters.last?["error"] as? String == "You must provide 5 or 6 digits")
                #expect(enters.first?["error"] == nil)
                #expect(try retryCounter(reader) == 3, "the counter is unchanged")
                let (_, trace) = card.stop()
                #expect(!trace.contains("ins=86"), "no PACE was tried")
            }
        }

        @Test func invalidCANPUKAndNewPINAreAskedAgain() throws {
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(reader: reader, port: port, arguments: ["--pin-retries", "1"])
                defer { card.stop() }
                let result = try changePIN(
                    reader,
                    [
                        Self.set("SET_CAN", "50054"), Self.set("SET_CAN", "500540"), Self.set("SET_PIN", "123456"),
                        Self.set("SET_NEW_PIN", "abcdef"), Self.set("SET_NEW_PIN", "6543210"),
                        Self.set("SET_NEW_PIN", "654321"),
                    ])
                #expect(result.status == 0, "\(result.stdout)")
                let errors = try result.stdoutLines.map(jsonObject).compactMap { m -> String? in
                    guard let e = m["error"] as? String else { return nil }
                    return "\(m["msg"] as? String ?? ""): \(e)"
                }
                #expect(
                    errors == [
                        "ENTER_CAN: You must provide 6 digits", "ENTER_NEW_PIN: You must provide 6 digits",
                        "ENTER_NEW_PIN: You must provide 6 digits",
                    ])
            }
        }

        @Test func brokenAndUnexpectedCommandsAreAnsweredAndTheWorkflowGoesOn() throws {
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(reader: reader, port: port)
                defer { card.stop() }
                let result = try changePIN(
                    reader,
                    [
                        #"{"cmd":"SET_PIN","value":"12"#, #"{"cmd":"get_INFo"}"#, Self.set("SET_CAN", "500540"),
                        #"{"cmd":"ACCEPT"}"#, Self.set("SET_PIN", "123456"), Self.set("SET_NEW_PIN", "654321"),
                    ])
                #expect(result.status == 0)
                let names = messageNames(result.stdoutLines)
                #expect(names.first == "CHANGE_PIN")
                #expect(names.contains("INVALID"))
                #expect(result.stdoutLines.contains(#"{"msg":"UNKNOWN_COMMAND","error":"get_INFo"}"#))
                #expect(result.stdoutLines.contains(#"{"msg":"BAD_STATE","error":"SET_CAN"}"#))
                #expect(result.stdoutLines.contains(#"{"msg":"BAD_STATE","error":"ACCEPT"}"#))
                #expect(result.stdoutLines.last == #"{"msg":"CHANGE_PIN","success":true}"#)
            }
        }

        /// CANCEL at each prompt ends the workflow with success false and exit status 5.
        @Test(arguments: [
            ("3", [String](), "ENTER_PIN"), ("1", [], "ENTER_CAN"), ("0", [], "ENTER_PUK"),
            ("3", [set("SET_PIN", "123456")], "ENTER_NEW_PIN"),
        ])
        func cancelAtEveryPrompt(retries: String, before: [String], prompt: String) throws {
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(reader: reader, port: port, arguments: ["--pin-retries", retries])
                defer { card.stop() }
                let run = try InteractiveRun(["change-pin", "--json", "--reader", reader, "--timeout", "10"])
                before.forEach(run.send)
                try run.expect(prompt)
                run.send(Self.cancel)
                let (status, lines, _) = run.finish()
                #expect(status == 5)
                #expect(lines.last == #"{"msg":"CHANGE_PIN","success":false,"reason":"Change_Pin_User_Cancelled"}"#)
                #expect(try retryCounter(reader) == Int(retries), "nothing changed on the card")
            }
        }

        /// The card leaves the reader while eid waits at each prompt: a clear failure, no hang.
        @Test(arguments: [
            ("3", [String](), "ENTER_PIN", set("SET_PIN", "123456")),
            ("1", [], "ENTER_CAN", set("SET_CAN", "500540")),
            ("0", [], "ENTER_PUK", set("SET_PUK", "9876543210")),
            ("3", [set("SET_PIN", "123456")], "ENTER_NEW_PIN", set("SET_NEW_PIN", "654321")),
        ])
        func cardRemovedAtEveryStep(retries: String, before: [String], prompt: String, answer: String) throws {
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(reader: reader, port: port, arguments: ["--pin-retries", retries])
                let run = try InteractiveRun(["change-pin", "--json", "--reader", reader, "--timeout", "10"])
                before.forEach(run.send)
                try run.expect(prompt)
                card.stop()
                run.send(answer)
                let (status, lines, stderr) = run.finish()
                #expect(status == 4, "\(lines) \(stderr)")
                #expect(lines.last == #"{"msg":"CHANGE_PIN","success":false,"reason":"Card_Removed"}"#)
                #expect(stderr.contains("removed") || stderr.contains("card"), "\(stderr)")
                #expect(!stderr.contains("123456") && !stderr.contains("9876543210") && !stderr.contains("500540"))
            }
        }

        @Test func waitsForACardThenUsesIt() throws {
            try E2E.pool.withReader { reader, port in
                let run = try InteractiveRun(["change-pin", "--json", "--reader", reader, "--timeout", "15"])
                #expect(try run.next()["msg"] as? String == "CHANGE_PIN")
                #expect(try run.next()["msg"] as? String == "INSERT_CARD")
                let card = try SimulatedCard(reader: reader, port: port, waitForCard: false)
                defer { card.stop() }
                try run.expect("ENTER_PIN")
                run.send(Self.set("SET_PIN", "123456"))
                try run.expect("ENTER_NEW_PIN")
                run.send(Self.set("SET_NEW_PIN", "654321"))
                let (status, lines, _) = run.finish()
                #expect(status == 0)
                #expect(lines.last == #"{"msg":"CHANGE_PIN","success":true}"#)
            }
        }

        @Test func aCardInUseIsShownAsSuchByReaders() throws {
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(reader: reader, port: port)
                defer { card.stop() }
                let run = try InteractiveRun(["change-pin", "--json", "--reader", reader, "--timeout", "10"])
                try run.expect("ENTER_PIN")
                let human = try runTool("eid", ["readers"]).stdoutLines
                #expect(
                    human.contains { $0.hasPrefix(reader) && $0.hasSuffix("card in use by another program") },
                    "\(human)")
                let entry = try readerEntry(reader, in: try runTool("eid", ["readers", "--json"]).stdout)
                #expect((entry["card"] as? [String: Any])?.isEmpty == true)
                run.send(Self.cancel)
                #expect(run.finish().status == 5)
                #expect(try retryCounter(reader) == 3, "the session was not disturbed")
            }
        }

        @Test func readerQuestionsAreAnsweredWhileTheWorkflowRuns() throws {
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(reader: reader, port: port, arguments: ["--pin-retries", "2"])
                defer { card.stop() }
                let run = try InteractiveRun(["change-pin", "--json", "--reader", reader, "--timeout", "10"])
                try run.expect("ENTER_PIN")
                run.send(#"{"cmd":"GET_READER_LIST"}"#)
                let list = try run.expect("READER_LIST")
                let mine = (list["readers"] as? [[String: Any]])?.first { $0["name"] as? String == reader }
                #expect(
                    (mine?["card"] as? [String: Any])?["retryCounter"] as? Int == 2,
                    "the workflow's own view of its card")
                run.send(#"{"cmd":"GET_READER","name":"\#(reader)"}"#)
                let one = try run.expect("READER")
                #expect(one["name"] as? String == reader)
                run.send(#"{"cmd":"GET_READER","name":"No such reader"}"#)
                let none = try run.expect("READER")
                #expect(none["attached"] as? Bool == false)
                run.send(Self.set("SET_PIN", "123456"))
                try run.expect("ENTER_NEW_PIN")
                run.send(Self.set("SET_NEW_PIN", "654321"))
                let (status, lines, _) = run.finish()
                #expect(status == 0)
                #expect(!messageNames(lines).contains("BAD_STATE"))
            }
        }

        @Test func noCardWithinTheTimeout() throws {
            try E2E.pool.withReader { reader, _ in
                let result = try runTool(
                    "eid", ["change-pin", "--json", "--reader", reader, "--timeout", "1"], stdin: "")
                #expect(result.status == 5)
                #expect(messageNames(result.stdoutLines) == ["CHANGE_PIN", "INSERT_CARD", "CHANGE_PIN"])
            }
        }

        @Test func simulatorWorksWithoutPCSCD() throws {
            let result = try runTool(
                "eid", ["change-pin", "--json", "--simulator"],
                stdin: [Self.set("SET_PIN", "123456"), Self.set("SET_NEW_PIN", "654321")].map { $0 + "\n" }.joined(),
                environment: ["PCSCLITE_CSOCK_NAME": "/nonexistent/pcscd.comm"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdoutLines.last == #"{"msg":"CHANGE_PIN","success":true}"#)
        }

        /// With --simulator only the in-process card is used: a card in a PC/SC reader (here
        /// one with its PIN suspended, which would ask for the CAN) never gets its secrets.
        @Test func simulatorUsesTheInProcessCardWhileAPCSCReaderHoldsOne() throws {
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(reader: reader, port: port, arguments: ["--pin-retries", "1"])
                defer { card.stop() }
                let result = try runTool(
                    "eid", ["change-pin", "--json", "--simulator"],
                    stdin: [Self.set("SET_PIN", "123456"), Self.set("SET_NEW_PIN", "654321")].map { $0 + "\n" }
                        .joined())
                #expect(result.status == 0, "\(result.stderr)\n\(result.stdoutLines.joined(separator: "\n"))")
                #expect(result.stdoutLines.last == #"{"msg":"CHANGE_PIN","success":true}"#)
                let readers = result.stdoutLines.compactMap { try? jsonObject($0) }
                    .filter { $0["msg"] as? String == "READER" }.map { $0["name"] as? String }
                #expect(readers.allSatisfy { $0 == "Simulator" })
                let list = try runTool("eid", ["readers", "--json"])
                let entry = try readerEntry(reader, in: list.stdout)
                #expect((entry["card"] as? [String: Any])?["retryCounter"] as? Int == 1, "\(list.stdout)")
                let refused = try runTool(
                    "eid", ["change-pin", "--json", "--simulator", "--reader", reader], stdin: "")
                #expect(refused.status == 64, "\(refused.stderr)")
            }
        }

        @Test func pcscdNotRunning() throws {
            let result = try runTool(
                "eid", ["change-pin", "--json"], stdin: "",
                environment: ["PCSCLITE_CSOCK_NAME": "/nonexistent/pcscd.comm"])
            #expect(result.status == 3)
            #expect(result.stderr.contains("pcscd"))
        }
    }
}
