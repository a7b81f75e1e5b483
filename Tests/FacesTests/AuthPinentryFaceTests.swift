import Faces
import Testing
import Workflows

/// `eid auth` in process with no terminal: with a pinentry program (a scripted Assuan peer) the
/// session asks through it, CONFIRM first with the service and the data, then GETPIN; without
/// one it fails as before.
@Suite struct AuthPinentryFaceTests {
    func run(_ harness: Harness, server: InProcessEIDServer, pinentry: PinentryProgram?) -> Int32 {
        AuthFace(
            context: harness.context, options: .init(json: false, timeout: 10, pinentry: pinentry),
            trust: AuthFaceTests.trust, connect: server.connect
        ).run(url: InProcessEIDServer.tcTokenURL)
    }

    @Test func withoutATerminalThePinentryConfirmsAndGivesThePIN() throws {
        let script = try PinentryFaceTests.ScriptedPinentry(getpin: "echo 'D 123456'; echo OK")
        let server = try InProcessEIDServer()
        let harness = Harness()
        let status = run(harness, server: server, pinentry: script.program)
        #expect(status == ExitStatus.success, "\(harness.sink.error)")
        #expect(try #require(server.result).ok)
        let sent = script.received
        let confirm = try #require(sent.firstIndex(of: "CONFIRM"))
        let getpin = try #require(sent.firstIndex(of: "GETPIN"))
        #expect(confirm < getpin)
        let description = try #require(sent[..<confirm].last { $0.hasPrefix("SETDESC ") })
        #expect(description.hasPrefix("SETDESC Service: "))
        #expect(description.contains("%0AThe service asks to read:%0A"))
        #expect(description.hasSuffix("%0A%0AProceed?"))
        #expect(sent.contains("SETTITLE eid: online authentication"))
        #expect(!harness.sink.output.joined().contains("123456"))
    }

    @Test func cancelAtTheConfirmationSendsNothing() throws {
        let script = try PinentryFaceTests.ScriptedPinentry(confirm: "echo 'ERR 83886179 Operation cancelled'")
        let server = try InProcessEIDServer()
        let harness = Harness()
        #expect(
            run(harness, server: server, pinentry: script.program) == ExitStatus.cancelled)
        #expect(!script.received.contains("GETPIN"))
        #expect(harness.sink.error == ["eid: cancelled; no data was sent to the service"])
        #expect(server.result?.ok != true)
    }

    @Test func withoutATerminalOrPinentryNothingIsAsked() throws {
        let server = try InProcessEIDServer()
        let harness = Harness()
        #expect(run(harness, server: server, pinentry: nil) == ExitStatus.usage)
    }

    /// eid serve's answerer without a terminal: the browser's activation runs through the
    /// pinentry, even where a terminal could be opened, and ends at the refresh address.
    @Test func theServicesPinentryAnswererLogsIn() throws {
        let script = try PinentryFaceTests.ScriptedPinentry(getpin: "echo 'D 123456'; echo OK")
        let server = try InProcessEIDServer()
        let terminal = FakeTerminal(typing: [])
        let harness = Harness(terminal: terminal)
        let network = ServiceSessionsTests.Network(connect: server.connect)
        let options = ServiceSessions.Options(
            reader: nil, timeout: 10, trust: AuthFaceTests.trust, connect: { network.connect($0) })
        let ending = PinentryAnswerer(context: harness.context, options: options, program: script.program)
            .authenticate(tcTokenURL: InProcessEIDServer.tcTokenURL)
        #expect(ending.status == ExitStatus.success, "\(harness.sink.error)")
        #expect(ending.url?.hasSuffix("ResultMajor=ok") == true)
        #expect(script.received.contains("CONFIRM") && script.received.contains("GETPIN"))
        #expect(terminal.events.isEmpty, "the terminal is not asked")
    }
}
