import Foundation
import SDK
import SmartCard
import TestPrograms
import Testing
import Workflows

@testable import Faces

/// The pinentry face against scripted Assuan peers: small shell scripts that answer as a pinentry
/// program does (greeting, OK to settings, D and OK to GETPIN, ERR to cancel) and log what they
/// were sent.
@Suite struct PinentryFaceTests {
    let reader = ReaderInfo(name: "R", keypad: false, card: .eID(CardInfo(retryCounter: 3)))

    /// A directory with a pinentry script answering GETPIN with `getpin` lines and CONFIRM with
    /// `confirm` lines; every line received goes to `log`.
    final class ScriptedPinentry: Sendable {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pinentry-\(UUID())")
        var script: String { directory.appendingPathComponent("pinentry").path }
        /// The script itself is the program eid starts (ExecutableFile writes it so that no
        /// other test's child holds it open, which would make it ETXTBSY).
        var program: PinentryProgram { PinentryProgram(program: script) }
        var log: URL { directory.appendingPathComponent("log") }

        init(
            greeting: String = "echo 'OK Pleased to meet you'", getpin: String = "echo OK", confirm: String = "echo OK"
        )
            throws
        {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let script = """
                #!/bin/sh
                \(greeting)
                while read -r line; do
                  printf '%s\\n' "$line" >> '\(log.path)'
                  case "$line" in
                    GETPIN) \(getpin) ;;
                    CONFIRM) \(confirm) ;;
                    BYE) echo 'OK closing connection'; exit 0 ;;
                    *) echo OK ;;
                  esac
                done
                """
            try ExecutableFile.write(script, to: self.script)
        }

        deinit { try? FileManager.default.removeItem(at: directory) }

        var received: [String] {
            ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
    }

    func face(_ script: ScriptedPinentry, sink: RecordingSink = RecordingSink(), replyTimeout: Double = 10)
        -> PinentryFace
    {
        var program = script.program
        program.replyTimeout = replyTimeout
        program.ttyName = "/dev/pts/99"
        return PinentryFace(program: program, console: Console(sink: sink), title: "eid test", transportPIN: false)
    }

    /// The secret of a SET_PIN, or nil.
    func pin(_ input: PeerInput) -> Secret? {
        if case .command(.setSecret(.pin, let value)) = input { return value }
        return nil
    }

    @Test func getpinGivesTheDecodedSecretAndSendsTheTexts() throws {
        let script = try ScriptedPinentry(getpin: "echo '# a comment'; echo 'S PROGRESS 1'; echo 'D 123%3456'; echo OK")
        let face = face(script)
        face.requests.note(.enterPIN(error: nil, reader: reader))
        let secret = try #require(pin(face.nextCommand(timeout: 30)))
        #expect(secret.matches(Secret("123456")))
        let sent = script.received
        #expect(sent.first == "OPTION ttyname=/dev/pts/99")
        #expect(sent.contains("SETTITLE eid test"))
        #expect(sent.contains("SETDESC Enter your PIN (6 digits)."))
        #expect(sent.contains("SETPROMPT PIN:"))
        #expect(sent.contains("SETTIMEOUT 30"))
        #expect(sent.suffix(2) == ["GETPIN", "BYE"])
    }

    @Test func theReasonIsInTheDescriptionEscaped() throws {
        let script = try ScriptedPinentry(getpin: "echo 'D 111111'; echo OK")
        let face = face(script)
        face.requests.note(.reader(reader))
        let fewer = ReaderInfo(name: "R", keypad: false, card: .eID(CardInfo(retryCounter: 2)))
        face.requests.note(.enterPIN(error: nil, reader: fewer))
        _ = face.nextCommand(timeout: 30)
        #expect(script.received.contains("SETDESC Wrong PIN. 2 attempts left.%0AEnter your PIN (6 digits)."))
    }

    @Test func confirmShowsTheRequestAndOKAccepts() throws {
        let script = try ScriptedPinentry()
        let input = face(script).confirm(request: ["Service:   100% Test", "Family name (required)"], timeout: 30)
        guard case .command(.accept) = input else {
            Issue.record("OK at CONFIRM must accept")
            return
        }
        #expect(script.received.contains("SETDESC Service:   100%25 Test%0AFamily name (required)%0A%0AProceed?"))
        #expect(script.received.contains("SETOK Proceed"))
    }

    @Test(arguments: ["ERR 83886179 Operation cancelled <Pinentry>", "ERR 83886194 Not confirmed <Pinentry>"])
    func cancelOrNoAtConfirmCancels(_ answer: String) throws {
        let script = try ScriptedPinentry(confirm: "echo '\(answer)'")
        let sink = RecordingSink()
        guard case .command(.cancel) = face(script, sink: sink).confirm(request: ["x"], timeout: 30) else {
            Issue.record("\(answer) must cancel: \(sink.error)")
            return
        }
    }

    @Test func cancelAtGetpinCancels() throws {
        let script = try ScriptedPinentry(getpin: "echo 'ERR 83886179 Operation cancelled <Pinentry>'")
        let face = face(script)
        face.requests.note(.enterPIN(error: nil, reader: reader))
        guard case .command(.cancel) = face.nextCommand(timeout: 30) else {
            Issue.record("cancel must be CANCEL")
            return
        }
    }

    @Test func theDialogsOwnTimeoutIsATimeout() throws {
        let script = try ScriptedPinentry(getpin: "echo 'ERR 83886142 Timeout <Pinentry>'")
        let face = face(script)
        face.requests.note(.enterPIN(error: nil, reader: reader))
        guard case .timedOut = face.nextCommand(timeout: 30) else {
            Issue.record("the dialog's timeout must be a timeout")
            return
        }
    }

    /// Failures end the input with a sentence on standard error that holds no typed text.
    @Test(arguments: [
        ("echo 'D 123456'; echo 'HELLO 123456'", "not Assuan (unknown response HELLO)"),
        ("echo 'D 12%4'; echo OK", "not Assuan (bad escape in data)"),
        ("echo 'ERR 12'", "refused GETPIN (error 12)"),
        ("exit 3", "ended without an answer"),
        ("echo 'INQUIRE PINBLOCK'", "refused GETPIN"),
    ])
    func aBadAnswerEndsTheInput(_ getpin: String, _ said: String) throws {
        let script = try ScriptedPinentry(getpin: getpin)
        let sink = RecordingSink()
        let face = face(script, sink: sink)
        face.requests.note(.enterPIN(error: nil, reader: reader))
        guard case .endOfInput = face.nextCommand(timeout: 30) else {
            Issue.record("\(getpin) must end the input")
            return
        }
        #expect(sink.error.count == 1)
        #expect(sink.error.first?.contains(said) == true, "\(sink.error)")
        #expect(sink.error.allSatisfy { !$0.contains("123456") })
    }

    @Test func aSilentProgramTimesOut() throws {
        let script = try ScriptedPinentry(greeting: "sleep 30")
        let sink = RecordingSink()
        let start = Date()
        guard case .endOfInput = face(script, sink: sink, replyTimeout: 0.5).confirm(request: ["x"], timeout: 60) else {
            Issue.record("a program that never greets must end the input")
            return
        }
        // Timing is the behaviour: the reply timeout ends it, long before the program's 30 s sleep ends.
        #expect(Date().timeIntervalSince(start) < 25)
        #expect(sink.error.first?.contains("did not answer") == true)
    }

    @Test func aDialogNobodyAnswersTimesOut() throws {
        let script = try ScriptedPinentry(getpin: "sleep 30")
        let face = face(script, replyTimeout: 0.3)
        face.requests.note(.enterPIN(error: nil, reader: reader))
        let start = Date()
        guard case .endOfInput = face.nextCommand(timeout: 0.5) else {
            Issue.record("no answer within the time must end the input")
            return
        }
        // Timing is the behaviour: the timeouts end it, long before the program's 30 s sleep ends.
        #expect(Date().timeIntervalSince(start) < 25)
    }

    /// The program gets its Assuan socket (as standard input and output) and standard error, none
    /// of eid's other descriptors: here one held open on a high number without close-on-exec, as a
    /// connection to pcscd or the eID server might be. The script lists what it inherited.
    @Test func noOtherDescriptorReachesTheProgram() throws {
        let file = open("/dev/null", O_RDONLY)
        #expect(dup2(file, 200) == 200)
        close(file)
        defer { close(200) }
        #expect(fcntl(200, F_GETFD) & FD_CLOEXEC == 0, "the held descriptor is inheritable")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pinentry-fds-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let list = directory.appendingPathComponent("fds")
        let script = try ScriptedPinentry(
            getpin: "\(DescriptorLister.command(writingTo: list.path)); echo 'D listed'; echo OK")
        let face = face(script)
        face.requests.note(.enterPIN(error: nil, reader: reader))
        let answer = try #require(pin(face.nextCommand(timeout: 30)))
        #expect(answer.matches(Secret("listed")))
        let open = try DescriptorLister.read(list)
        #expect(open.keys.sorted() == [0, 1, 2], "\(open)")
        #expect(open[0]?.hasPrefix("socket:") == true && open[0] == open[1], "\(open)")
    }

    @Test func aProgramIsInstalledByPathOrOnPATH() {
        #expect(PinentryProgram(program: "/bin/sh").isInstalled)
        #expect(PinentryProgram(program: "sh").isInstalled)
        #expect(!PinentryProgram(program: "eid-no-such-pinentry").isInstalled)
        #expect(!PinentryProgram(program: "/nonexistent/pinentry").isInstalled)
    }

    @Test func aMissingProgramIsSaid() {
        let sink = RecordingSink()
        let face = PinentryFace(
            program: PinentryProgram(program: "eid-no-such-pinentry"), console: Console(sink: sink), title: "t")
        guard case .endOfInput = face.confirm(request: ["x"], timeout: 30) else {
            Issue.record("a missing program must end the input")
            return
        }
        #expect(sink.error.first?.contains("eid-no-such-pinentry is not installed") == true)
    }

    @Test func anInterruptCancelsTheDialog() throws {
        let script = try ScriptedPinentry(confirm: "sleep 30")
        let face = face(script)
        // Interrupted once the program shows the dialog (it logs CONFIRM), at most 30 s after the start.
        DispatchQueue.global().async {
            let deadline = Deadline(secondsFromNow: 30)
            while !script.received.contains("CONFIRM") && !deadline.hasPassed { usleep(10_000) }
            face.interrupt()
        }
        let start = Date()
        guard case .command(.cancel) = face.confirm(request: ["x"], timeout: 60) else {
            Issue.record("an interrupt must cancel")
            return
        }
        #expect(Date().timeIntervalSince(start) < 25, "the interrupt ended the dialog, not the program's 30 s sleep")
        #expect(face.isInterrupted)
    }
}

@Suite struct AssuanResponseTests {
    func parse(_ text: String) throws(PinentryError) -> AssuanResponse {
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBufferPointer { (b) throws(PinentryError) in try AssuanResponse.parse(b) }
    }

    @Test func linesAreParsedStrictly() throws {
        #expect(try parse("OK") == .ok)
        #expect(try parse("OK Pleased to meet you") == .ok)
        #expect(try parse("ERR 83886179 Operation cancelled") == .error(code: 83_886_179))
        #expect(try parse("D 1234") == .data(offset: 2))
        #expect(try parse("S PASSPHRASE_FROM_CACHE") == .status(keyword: "PASSPHRASE_FROM_CACHE"))
        #expect(try parse("# comment") == .comment)
        for bad in ["OKAY", "ERR", "ERR x", "ok", "", "D", "S ", "OK\u{1b}[2J"] {
            #expect(throws: PinentryError.self, "\(bad)") { try parse(bad) }
        }
    }

    @Test func errorCodesAreReadWithoutTheirSource() {
        #expect(AssuanResponse.ErrorKind(code: 83_886_179) == .cancelled)
        #expect(AssuanResponse.ErrorKind(code: 99) == .cancelled)
        #expect(AssuanResponse.ErrorKind(code: 83_886_194) == .notConfirmed)
        #expect(AssuanResponse.ErrorKind(code: 83_886_142) == .timedOut)
        #expect(AssuanResponse.ErrorKind(code: 83_886_180) == .other(83_886_180))
    }

    @Test func commandsAreEscapedAndCut() {
        #expect(AssuanData.command("SETDESC", "a%b\nc\rd\u{1b}") == Array("SETDESC a%25b%0Ac\\x0dd\\x1b".utf8))
        let long = AssuanData.command("SETDESC", String(repeating: "ä", count: 900))
        #expect(long.count <= AssuanData.lineLength)
        #expect(String(decoding: long, as: UTF8.self).hasSuffix("ä…"))
    }
}
