import Dispatch
import Faces
import SDK
import SmartCard
import Testing
import Workflows

#if canImport(Glibc)
import Glibc
#endif

/// The terminal face (`eid change-pin` on a terminal) with a recording terminal device, against
/// the in-process software card: the sentences printed, the prompts, echo off before every
/// prompt and back on after it, cancel on a stop signal.
@Suite struct TerminalFaceTests {
    static let pinPrompt = "PIN (6 digits, or 5 for the transport PIN): "

    func run(_ harness: Harness, json: Bool = false) -> Int32 {
        ChangePINFace(context: harness.context, options: .init(json: json, timeout: 10)).run()
    }

    /// The prompts written, in order.
    func prompts(_ terminal: FakeTerminal) -> [String] {
        terminal.events.filter { $0.hasPrefix("write ") && $0 != "write \n" }.map { String($0.dropFirst(6)) }
    }

    @Test func changesThePINWithSentencesAndPromptsWithEchoOff() {
        let terminal = FakeTerminal(typing: ["123456", "654321", "654321"])
        let harness = Harness(terminal: terminal)
        #expect(run(harness) == ExitStatus.success)
        #expect(
            harness.sink.output == [
                "Change the PIN of your ID card (Ctrl-C cancels).", "Simulator: eID card — PIN: 3 attempts left",
                "Choose your new 6-digit PIN.", "Done: the PIN has been changed.",
            ])
        #expect(prompts(terminal) == [Self.pinPrompt, "New PIN: ", "Repeat new PIN: "])
        // Each prompt: echo off, prompt, (typing), echo restored, newline.
        let expected = [Self.pinPrompt, "New PIN: ", "Repeat new PIN: "].flatMap {
            ["echo off", "write \($0)", "restore", "write \n"]
        }
        #expect(terminal.events == expected)
        #expect(!terminal.isEchoOff)
        #expect(harness.card.passwords.pin == "654321")
        #expect(harness.signals.watching == 1)
    }

    @Test func wrongPINSaysTheAttemptsLeft() {
        let terminal = FakeTerminal(typing: ["111111", "123456", "654321", "654321"])
        let harness = Harness(terminal: terminal)
        #expect(run(harness) == ExitStatus.success)
        #expect(harness.sink.output.contains("Wrong PIN. 2 attempts left."))
    }

    @Test func differingRepeatsAreAskedAgain() {
        let terminal = FakeTerminal(typing: ["123456", "654321", "654322", "654321", "654321"])
        let harness = Harness(terminal: terminal)
        #expect(run(harness) == ExitStatus.success)
        #expect(terminal.events.contains("write The two entries differ. Try again.\n"))
        #expect(prompts(terminal).filter { $0 == "New PIN: " }.count == 2)
    }

    @Test func aTooLongLineIsRefusedAndAskedAgain() {
        let terminal = FakeTerminal(typing: [String(repeating: "1", count: 40), "123456", "654321", "654321"])
        let harness = Harness(terminal: terminal)
        #expect(run(harness) == ExitStatus.success)
        #expect(terminal.events.contains("write Too long: at most 32 characters. Try again.\n"))
        #expect(prompts(terminal).filter { $0 == Self.pinPrompt }.count == 2)
    }

    @Test func aStopSignalAtAPromptRestoresEchoAndCancels() {
        let terminal = FakeTerminal(typing: [])
        let harness = Harness(terminal: terminal)
        let signals = harness.signals
        terminal.onEvent { event in
            if event == "write \(Self.pinPrompt)" { DispatchQueue.global().async { signals.raiseStop() } }
        }
        #expect(run(harness) == ExitStatus.interrupted)
        #expect(!terminal.isEchoOff)
        #expect(Array(terminal.events.prefix(3)) == ["echo off", "write \(Self.pinPrompt)", "restore"])
        #expect(harness.sink.error == ["eid: \(FailureReason.interrupted.sentence)"])
        #expect(harness.sink.output.last == "Simulator: eID card — PIN: 3 attempts left")
        #expect(harness.card.passwords.pinRetryCounter == 3, "nothing reached the card")
        #expect(harness.terminations.all.isEmpty)
    }

    @Test func suspendRestoresEchoStopsAndAsksAgain() {
        let terminal = FakeTerminal(typing: [])
        let harness = Harness(terminal: terminal)
        let signals = harness.signals
        terminal.onEvent { event in
            guard event == "write \(Self.pinPrompt)" else { return }
            // The first prompt: Ctrl-Z. After `fg` the prompt is shown again; then Ctrl-C ends it
            // (on that prompt, not after a fixed 0.3 s a loaded machine may not reach it in).
            if terminal.events.filter({ $0 == event }).count == 1 {
                DispatchQueue.global().async { signals.raiseSuspend() }
            } else {
                DispatchQueue.global().async { signals.raiseStop() }
            }
        }
        #expect(run(harness) == ExitStatus.interrupted)
        let events = terminal.events
        #expect(
            Array(events.prefix(7)) == [
                "echo off", "write \(Self.pinPrompt)", "restore", "write \n", "stop", "echo off",
                "write \(Self.pinPrompt)",
            ])
        #expect(!terminal.isEchoOff)
    }

    @Test func endOfInputAtAPromptCancels() {
        let terminal = FakeTerminal(typing: [], thenEnd: true)
        let harness = Harness(terminal: terminal)
        #expect(run(harness) == ExitStatus.cancelled)
        #expect(harness.sink.error == ["eid: \(FailureReason.userCancelled(during: .changePIN).sentence)"])
    }

    @Test func noTerminalEndsWithUsage() {
        let harness = Harness(terminal: nil)
        #expect(run(harness) == ExitStatus.usage)
        #expect(harness.sink.error == ["eid: \(FailureReason.noTerminal.sentence)"])
    }

    @Test func jsonOutputWithTerminalInputStillPromptsForTheRightSecret() {
        let terminal = FakeTerminal(typing: ["123456", "654321", "654321"])
        let harness = Harness(input: ScriptedInput([], isTerminal: true), terminal: terminal)
        #expect(run(harness, json: true) == ExitStatus.success)
        #expect(harness.sink.messages == ["CHANGE_PIN", "READER", "ENTER_PIN", "ENTER_NEW_PIN", "CHANGE_PIN"])
        #expect(prompts(terminal) == [Self.pinPrompt, "New PIN: ", "Repeat new PIN: "])
    }
}

@Suite struct TerminalFaceRenderTests {
    let reader = ReaderInfo(name: "R", keypad: false, card: .eID(CardInfo(retryCounter: 1)))

    @Test func renderDoesNotChangePromptState() {
        let face = TerminalFace(terminal: TerminalInput(device: FakeTerminal(typing: [])))
        let ask = SDKMessage.enterCAN(error: nil, reader: reader)
        let first = face.render(ask)
        #expect(face.render(ask) == first, "rendering twice says the same")
        #expect(first?.hasPrefix("The PIN is suspended") == true)
        face.note(ask)
        #expect(face.render(ask) == "Wrong CAN. Try again.")
    }

    @Test func nothingIsAskedBeforeAnEnterMessage() {
        let face = TerminalFace(terminal: TerminalInput(device: FakeTerminal(typing: ["123456"])))
        _ = face.render(.enterPIN(error: nil, reader: reader))
        guard case .timedOut = face.nextCommand(timeout: 0.05) else {
            Issue.record("render alone must not arm a prompt")
            return
        }
    }
}

/// A reader with a PIN pad: the terminal says where to type and asks nothing.
@Suite struct TerminalFaceKeypadTests {
    let pad = ReaderInfo(name: "Phone", keypad: true, card: .eID(CardInfo(retryCounter: 3)))

    @Test func theKeypadIsNamedAndNothingIsRead() {
        let terminal = FakeTerminal(typing: ["123456"])
        let face = TerminalFace(terminal: TerminalInput(device: terminal))
        let ask = SDKMessage.enterPIN(error: nil, reader: pad)
        #expect(face.render(ask) == "Enter the PIN on the keypad of Phone.")
        face.note(ask)
        guard case .command(.setSecret(.pin, nil)) = face.nextCommand(timeout: 30) else {
            Issue.record("SET_PIN without a value expected")
            return
        }
        #expect(!terminal.events.contains("echo off"), "no prompt on the computer")
        let newPIN = SDKMessage.enterNewPIN(error: nil, reader: pad)
        #expect(face.render(newPIN) == "Choose your new 6-digit PIN. Enter the new PIN (twice) on the keypad of Phone.")
    }
}

@Suite struct ReadersFaceTests {
    @Test func listsTheSimulatorAsATable() {
        let harness = Harness()
        #expect(ReadersFace(context: harness.context, json: false).list() == ExitStatus.success)
        #expect(harness.sink.output.count == 2)
        #expect(harness.sink.output.last?.hasSuffix("eID card — PIN: 3 attempts left") == true)
    }

    @Test func listsAsOneReaderListLine() {
        let harness = Harness()
        #expect(ReadersFace(context: harness.context, json: true).list() == ExitStatus.success)
        #expect(harness.sink.messages == ["READER_LIST"])
    }

    @Test func watchEndsOnAStopSignal() {
        let harness = Harness()
        let signals = harness.signals
        harness.sink.onLine { _ in DispatchQueue.global().async { signals.raiseStop(SIGTERM) } }
        #expect(ReadersFace(context: harness.context, json: true).watch() == ExitStatus.success)
        #expect(harness.sink.messages.first == "READER")
    }
}
