import Foundation
import Testing

/// `eid auth` with no terminal asks through Debian's real pinentry-tty (`--pinentry`), which
/// draws on a tmux pane as gpg-agent's pinentry does on GPG_TTY: eid runs in a session of its own
/// (setsid, so it has no /dev/tty), the confirmation shows the service and the data, and the PIN
/// typed into pinentry reaches the card; Cancel in the dialog is the user's cancel.
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
}
