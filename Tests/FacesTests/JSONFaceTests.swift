import CardSimulator
import Dispatch
import Faces
import Online
import SDK
import SmartCard
import Testing
import Workflows

#if canImport(Glibc)
import Glibc
#endif

/// The JSON face (`eid change-pin --json` with commands on standard input), against the
/// in-process software card, without a terminal or pcscd.
@Suite struct JSONFaceTests {
    static let pin = #"{"cmd":"SET_PIN","value":"123456"}"#
    static let newPIN = #"{"cmd":"SET_NEW_PIN","value":"654321"}"#

    func run(_ harness: Harness, timeout: Double = 10) -> Int32 {
        ChangePINFace(context: harness.context, options: .init(json: true, timeout: timeout)).run()
    }

    /// A reader with a PIN pad: ENTER_* carry `"keypad":true`, and SET_* without a value answer them.
    @Test func onAKeypadReaderTheAnswersCarryNoValue() {
        let harness = Harness(input: ScriptedInput([#"{"cmd":"SET_PIN"}"#, #"{"cmd":"SET_NEW_PIN"}"#]))
        var context = harness.context
        let card = harness.card
        let keypad = SimulatedKeypad(pin: ["123456"], newPIN: "654321")
        context.readers = ReaderProviders(
            open: { SimulatorReaderProvider(card: card, keypad: keypad) }, lookup: { nil })
        #expect(ChangePINFace(context: context, options: .init(json: true, timeout: 10)).run() == ExitStatus.success)
        #expect(harness.sink.messages == ["CHANGE_PIN", "READER", "ENTER_PIN", "ENTER_NEW_PIN", "CHANGE_PIN"])
        let enterPIN = harness.sink.output.first { $0.hasPrefix(#"{"msg":"ENTER_PIN""#) } ?? ""
        #expect(enterPIN.contains(#""keypad":true"#))
        #expect(harness.card.passwords.pin == "654321")
    }

    @Test func changesThePINWithOneJSONLinePerMessageInOrder() {
        let harness = Harness(input: ScriptedInput([Self.pin, Self.newPIN]))
        #expect(run(harness) == ExitStatus.success)
        #expect(harness.sink.messages == ["CHANGE_PIN", "READER", "ENTER_PIN", "ENTER_NEW_PIN", "CHANGE_PIN"])
        #expect(harness.sink.output.last == #"{"msg":"CHANGE_PIN","success":true}"#)
        #expect(harness.sink.error.isEmpty)
        #expect(harness.card.passwords.pin == "654321")
        #expect(!harness.sink.output.joined().contains("123456"), "no secret is printed")
    }

    @Test func endOfInputCancelsQuietly() {
        let harness = Harness(input: ScriptedInput([Self.pin]))
        #expect(run(harness) == ExitStatus.cancelled)
        #expect(harness.sink.output.first == #"{"msg":"CHANGE_PIN"}"#)
        #expect(
            harness.sink.output.last == #"{"msg":"CHANGE_PIN","success":false,"reason":"Change_Pin_User_Cancelled"}"#)
        #expect(harness.sink.error.isEmpty, "a cancellation in JSON mode says nothing on stderr")
        #expect(harness.card.passwords.pin == "123456")
    }

    @Test func instantQuestionsAreAnsweredInAnyState() {
        let harness = Harness(
            input: ScriptedInput([#"{"cmd":"GET_INFO"}"#, #"{"cmd":"GET_READER_LIST"}"#, Self.pin, Self.newPIN]))
        #expect(run(harness) == ExitStatus.success)
        let names = harness.sink.messages
        #expect(names.first == "CHANGE_PIN")
        #expect(names.contains("INFO"))
        #expect(names.contains("READER_LIST"))
        let info = harness.sink.output.first { $0.contains(#""msg":"INFO""#) } ?? ""
        #expect(info.contains(EIDVersion.current))
        // The workflow still gets its answers in order.
        #expect(
            names.filter { $0 != "INFO" && $0 != "READER_LIST" } == [
                "CHANGE_PIN", "READER", "ENTER_PIN", "ENTER_NEW_PIN", "CHANGE_PIN",
            ])
    }

    @Test func wrongSecretKindGetsBadStateAndTheWorkflowGoesOn() {
        let harness = Harness(
            input: ScriptedInput([#"{"cmd":"SET_CAN","value":"500540"}"#, "{broken", Self.pin, Self.newPIN]))
        #expect(run(harness) == ExitStatus.success)
        #expect(harness.sink.messages.contains("BAD_STATE"))
        #expect(harness.sink.messages.contains("INVALID"))
    }

    /// Commands are checked when they arrive, as AusweisApp2's: a SET_NEW_PIN sent ahead is held
    /// while the workflow works, gets BAD_STATE at ENTER_PIN (not at ENTER_NEW_PIN), and the
    /// lines after it are read only then.
    @Test func commandsAreCheckedAgainstTheQuestionWhenTheyArrive() {
        let harness = Harness(
            input: ScriptedInput([
                Self.newPIN, #"{"cmd":"GET_API_LEVEL"}"#, #"{"cmd":"ACCEPT"}"#, Self.pin, Self.newPIN,
            ]))
        #expect(run(harness) == ExitStatus.success)
        #expect(
            harness.sink.messages == [
                "CHANGE_PIN", "READER", "ENTER_PIN", "BAD_STATE", "API_LEVEL", "BAD_STATE", "ENTER_NEW_PIN",
                "CHANGE_PIN",
            ])
        #expect(harness.sink.output.contains(#"{"msg":"BAD_STATE","error":"SET_NEW_PIN"}"#))
        #expect(harness.sink.output.contains(#"{"msg":"API_LEVEL","available":[1,2,3],"current":3}"#))
        #expect(harness.sink.output.contains(#"{"msg":"BAD_STATE","error":"ACCEPT"}"#))
        #expect(harness.card.passwords.pin == "654321")
    }

    @Test func aStopSignalCancelsRestoresAndEndsWith130() throws {
        let input = ScriptedInput([], open: true)
        let harness = Harness(input: input)
        let signals = harness.signals
        harness.sink.onLine { line in
            if line.contains("ENTER_PIN") { DispatchQueue.global().async { signals.raiseStop(SIGTERM) } }
        }
        #expect(run(harness) == ExitStatus.interrupted)
        input.close()
        #expect(harness.sink.messages == ["CHANGE_PIN", "READER", "ENTER_PIN", "CHANGE_PIN"])
        #expect(
            harness.sink.output.last == #"{"msg":"CHANGE_PIN","success":false,"reason":"Change_Pin_User_Cancelled"}"#)
        #expect(harness.sink.error.isEmpty, "interrupted JSON: the last JSON line says it")
        // The grace period is armed (by the signal thread, which may still be at it after the
        // workflow ended); only if the workflow had not ended would it end eid: it has, so its
        // end does nothing (eid serve lives on after a workflow cancelled at its terminal).
        let armed = Deadline(secondsFromNow: 30)
        while harness.clock.delays.isEmpty && !armed.hasPassed { usleep(10_000) }
        #expect(harness.clock.delays == [ChangePINFace.interruptGrace])
        harness.clock.runAll()
        #expect(harness.terminations.all.isEmpty)
        #expect(harness.sink.error.isEmpty)
    }

    @Test func aLineLongerThanTheLimitIsInvalidAndDropped() {
        let long =
            #"{"cmd":"SET_PIN","value":""# + String(repeating: "1", count: StandardInputReader.maximumLineLength)
            + #""}"#
        let harness = Harness(input: ScriptedInput([long, Self.pin, Self.newPIN]))
        #expect(run(harness) == ExitStatus.success)
        #expect(harness.sink.messages.filter { $0 == "INVALID" }.count == 1)
        #expect(harness.sink.messages.filter { $0 == "ENTER_PIN" }.count == 1)
    }

    @Test func noReaderServiceEndsWithStatus3() {
        let harness = Harness()
        var context = harness.context
        context.readers = ReaderProviders(
            open: { throw CardError.readerServiceUnavailable("SCARD_E_NO_SERVICE") }, lookup: { nil })
        let status = ChangePINFace(context: context, options: .init(json: true)).run()
        #expect(status == ExitStatus.serviceUnavailable)
        #expect(harness.sink.error.count == 1)
        #expect(harness.sink.output.isEmpty)
    }
}

@Suite struct InstantAnswersTests {
    @Test func getReaderAndListUseTheWorkflowsOwnView() {
        let board = ReaderBoard(lookup: { nil })
        let answers = InstantAnswers(version: "9.9", board: board)
        let reader = ReaderInfo(name: "R", keypad: false, card: .eID(CardInfo(retryCounter: 2)))
        board.note(.enterPIN(error: nil, reader: reader))
        #expect(answers.answer(.getReaderList) == .readerList([reader]))
        #expect(answers.answer(.getReader(name: .value("R"))) == .reader(reader))
        #expect(
            answers.answer(.getReader(name: .value("X")))
                == .reader(ReaderInfo(name: "X", attached: false, card: .none)))
        #expect(answers.answer(.getInfo) == .info(VersionInfo(implementationVersion: "9.9")))
        #expect(answers.answer(.cancel) == nil)
    }
}
