import Foundation
import Testing

/// `eid auth` with no terminal asks through Debian's real pinentry-tty (`--pinentry`), which
/// draws on a tmux pane as gpg-agent's pinentry does on GPG_TTY: eid runs in a session of its own
/// (setsid, so it has no /dev/tty), the confirmation shows the service and the data, and the PIN
/// typed into pinentry reaches the card; Cancel in the dialog is the user's cancel. The same for
/// `eid serve` answering a browser's activation with no terminal and no SDK client.
@Suite(
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: E2E.binDir.appendingPathComponent("eid-testserver").path)
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/pinentry-tty")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/setsid"),
        "needs the built eid-testserver binary, tmux, pinentry-tty and setsid: run `make test`"))
struct AuthPinentryTests {
    /// `eid auth --simulator --pinentry pinentry-tty` without a controlling terminal, its
    /// pinentry on the pane.
    func session(_ port: Substring) throws -> TmuxSession {
        let eid = E2E.binDir.appendingPathComponent("eid").path
        let line =
            "GPG_TTY=$(tty) setsid -w '\(eid)' auth --simulator --timeout 20 --pinentry pinentry-tty "
            + "https://127.0.0.1:\(port)/tctoken < /dev/null"
        return try TmuxSession(line, environment: ["PCSCLITE_CSOCK_NAME": "/nonexistent/pcscd.comm", "TERM": "xterm"])
    }

    /// Waits until the terminal at `tty` has echo off (stty -F), at most 10 s.
    func waitForEchoOff(_ tty: String) throws {
        let deadline = Date(timeIntervalSinceNow: 10)
        while Date() < deadline {
            let stty = Process()
            stty.executableURL = URL(fileURLWithPath: "/bin/stty")
            stty.arguments = ["-F", tty, "-a"]
            let out = Pipe()
            stty.standardOutput = out
            stty.standardError = Pipe()
            try stty.run()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            stty.waitUntilExit()
            if text.split(separator: " ").contains("-echo") { return }
            usleep(50_000)
        }
        throw E2EError.timeout("pinentry did not turn echo off on \(tty)")
    }

    @Test func proceedThenThePINTypedIntoPinentry() throws {
        let server = AuthAgainstTestServerTests()
        try server.withServer { port in
            let terminal = try session(port)
            try terminal.waitFor("[pc]?")
            try waitForEchoOff(terminal.pane("#{pane_tty}"))
            let asked = try terminal.screen()
            #expect(asked.contains("Service: eid-testserver"), "the dialog's summary: \(asked)")
            #expect(asked.contains("The service asks to read:"))
            #expect(asked.contains("Proceed?"))
            try terminal.type("p")
            // The card's line says "PIN: 3 attempts left" first; the second "PIN:" is the dialog's.
            try terminal.waitFor("PIN:", count: 2)
            #expect(try terminal.screen().contains("Enter your PIN (6 digits)."))
            // pinentry-tty flushes what was typed when it turns echo off: type after that (as above).
            try waitForEchoOff(terminal.pane("#{pane_tty}"))
            try terminal.type("123456")
            try terminal.waitFor("TTY=")
            let screen = try terminal.screen()
            #expect(screen.contains("Done: your data was sent to"), "\(screen)")
            #expect(screen.contains("EXIT=0"))
            #expect(!screen.contains("123456"), "pinentry does not echo the PIN")
            #expect(try server.result(port: port).hasPrefix(#"{"ok":true"#))
        }
    }

    @Test func cancelInPinentryIsTheUsersCancel() throws {
        let server = AuthAgainstTestServerTests()
        try server.withServer { port in
            let terminal = try session(port)
            try terminal.waitFor("[pc]?")
            try waitForEchoOff(terminal.pane("#{pane_tty}"))
            try terminal.type("c")
            try terminal.waitFor("TTY=")
            let screen = try terminal.screen()
            #expect(screen.contains("EXIT=") && !screen.contains("EXIT=0"), "\(screen)")
            #expect(screen.contains("cancel"), "\(screen)")
            let read = try server.result(port: port)
            #expect(ThroughPCSCD.AuthCardFlowTests.toldTheServer(read), "\(read)")
        }
    }

    /// `eid serve` without a terminal (standard input /dev/null) and without an SDK client: a
    /// browser's activation (curl) is answered through pinentry-tty on the pane, and the browser
    /// gets 102, then the 303 to the refresh address with the result.
    /// TR-03124-2 D_01: the questions come in pinentry's window, apart from the browser.
    @Test("EID_CLIENT_D_01: eid serve asks through pinentry and the browser lands on the refresh address")
    func serveAsksThroughPinentryAndTheBrowserLandsOnTheRefreshAddress() throws {
        let server = try TestServerProcess()
        defer { server.stop() }
        let pane = try TmuxSession("sleep 120", environment: ["TERM": "xterm"])
        let tty = try pane.pane("#{pane_tty}")
        let serve = try ServeProcess(
            ["--simulator", "--pinentry", "pinentry-tty"],
            environment: ["PCSCLITE_CSOCK_NAME": "/nonexistent/pcscd.comm", "GPG_TTY": tty, "TERM": "xterm"])
        defer { serve.stop() }
        let browser = BrowserRequest(ServeTests.activation(serve, tcTokenURL: "\(server.origin)/tctoken"))
        try pane.waitFor("[pc]?")
        try waitForEchoOff(tty)
        #expect(try pane.screen().contains("Service: eid-testserver"))
        try pane.type("p")
        try pane.waitFor("PIN:")
        try waitForEchoOff(tty)
        try pane.type("123456")
        let answer = try browser.finish()
        #expect(answer.statuses == [102, 303])
        #expect(answer.headers["location"]?.contains("ResultMajor=ok") == true)
        #expect(try server.result(session: nil)?.hasPrefix(#"{"ok":true"#) == true)
        #expect(!(try pane.screen()).contains("123456"))
        #expect(!serve.output.contains("123456"))
    }

    /// curl on a thread of its own: the browser waiting for its answer while the pinentry asks.
    final class BrowserRequest: @unchecked Sendable {
        private var result: Result<HTTPExchange, any Error>?
        private let done = DispatchSemaphore(value: 0)

        init(_ url: String) {
            Thread.detachNewThread { [self] in
                result = Result { try HTTPExchange.curl(url, timeout: 60) }
                done.signal()
            }
        }

        func finish() throws -> HTTPExchange {
            guard done.wait(timeout: .now() + 70) == .success, let result else {
                throw E2EError.timeout("the browser got no answer")
            }
            return try result.get()
        }
    }
}
