import Foundation
import Testing

/// `eid auth` as a person uses it, on a pseudo-terminal (tmux), with the in-process software
/// card (`--simulator`, no pcscd) against a real `eid-testserver serve`: who asks for what,
/// "Proceed? [y/N]", the PIN typed with echo off and never on the screen, the terminal restored
/// afterwards (also after Ctrl-C), and the server's /result.
@Suite(
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: E2E.binDir.appendingPathComponent("eid-testserver").path)
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"),
        "needs the built eid-testserver binary and tmux: run `make test`"))
struct AuthTerminalTests {
    /// The session prints stty's echo flag after eid ends: "TTY=echo", or "TTY=-echo" when off.
    func echoIsOn(_ screen: String) -> Bool {
        screen.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces) == "TTY=echo" }
    }

    /// `eid auth --simulator` with `options` in tmux, with no pcscd reachable.
    func session(_ port: Substring, _ options: [String] = []) throws -> TmuxSession {
        let eid = E2E.binDir.appendingPathComponent("eid").path
        let line =
            (["'\(eid)'", "auth", "--simulator", "--timeout", "20"] + options
            + ["https://127.0.0.1:\(port)/tctoken"]).joined(separator: " ")
        return try TmuxSession(line, environment: ["PCSCLITE_CSOCK_NAME": "/nonexistent/pcscd.comm"])
    }

    @Test(
        """
        EID_CLIENT_D_02, EID_CLIENT_D_03, EID_CLIENT_D_04, EID_CLIENT_D_12: the request (service, issuer, terms, \
        rights) is shown, then Proceed, then the PIN typed in eid
        """
    )
    func theRequestIsShownThenProceedThenThePIN() throws {
        let server = AuthAgainstTestServerTests()
        try server.withServer { port in
            let terminal = try session(port)
            try terminal.waitFor("Proceed? [y/N]")
            let asked = try terminal.screen()
            #expect(asked.contains("Online authentication with your ID card (Ctrl-C cancels)."))
            #expect(asked.contains("Service:   eid-testserver"))
            #expect(asked.contains("Issuer:    eid test PKI (TEST ONLY)"))
            #expect(asked.contains("Valid:     "))
            #expect(asked.contains("Terms:     Name, Anschrift und E-Mail-Adresse des Diensteanbieters:"))
            #expect(asked.contains("The service asks to read:"))
            // AusweisApp's words and order: the family name first.
            #expect(asked.contains("The service asks to read:\n  Family name (required)\n  Birth name (required)"))
            #expect(!asked.contains("DG"))
            #expect(!asked.contains("Simulator: "), "the card is not touched before the answer")
            try terminal.type("y")
            try terminal.waitFor("PIN (6 digits):")
            try terminal.type("123456")
            try terminal.waitFor("TTY=")
            let screen = try terminal.screen()
            #expect(screen.contains("Done: your data was sent to"), "\(screen)")
            #expect(screen.contains("Continue at: https://127.0.0.1:\(port)/refresh"))
            #expect(screen.contains("EXIT=0"))
            #expect(!screen.contains("123456"), "the PIN is not on the screen")
            #expect(echoIsOn(screen), "the terminal echoes again afterwards")
            #expect(try server.result(port: port).hasPrefix(#"{"ok":true"#))
        }
    }

    /// The acceptance line: `eid auth --simulator --yes URL` with the PIN typed at the prompt.
    @Test func simulatorYesWithThePINTyped() throws {
        let server = AuthAgainstTestServerTests()
        try server.withServer { port in
            let terminal = try session(port, ["--yes"])
            try terminal.waitFor("PIN (6 digits):")
            #expect(!(try terminal.screen()).contains("Proceed?"))
            try terminal.type("123456")
            try terminal.waitFor("TTY=")
            let screen = try terminal.screen()
            #expect(screen.contains("EXIT=0"), "\(screen)")
            #expect(!screen.contains("123456"))
            #expect(echoIsOn(screen))
            let read = try server.result(port: port)
            #expect(read.hasPrefix(#"{"ok":true"#) && read.contains(#""GivenNames":"ERIKA""#))
        }
    }

    /// Ctrl-C at "Proceed?" and at the PIN prompt: exit 130, echo back on, the server told.
    @Test(arguments: ["Proceed? [y/N]", "PIN (6 digits):"])
    func ctrlCRestoresTheTerminalAndTellsTheServer(prompt: String) throws {
        let server = AuthAgainstTestServerTests()
        try server.withServer { port in
            let terminal = try session(port)
            try terminal.waitFor("Proceed? [y/N]")
            if prompt.hasPrefix("PIN") {
                try terminal.type("y")
                try terminal.waitFor(prompt)
            }
            try terminal.interrupt()
            try terminal.waitFor("TTY=")
            let screen = try terminal.screen()
            #expect(screen.contains("EXIT=130"), "\(screen)")
            #expect(echoIsOn(screen), "echo is back on: \(screen)")
            let read = try server.result(port: port)
            #expect(ThroughPCSCD.AuthCardFlowTests.toldTheServer(read), "\(read)")
        }
    }

    /// A wrong PIN at the terminal, then the right one.
    @Test func wrongPINThenRightAtTheTerminal() throws {
        let server = AuthAgainstTestServerTests()
        try server.withServer { port in
            let terminal = try session(port, ["--yes"])
            try terminal.waitFor("PIN (6 digits):")
            try terminal.type("111111")
            try terminal.waitFor("Wrong PIN. 2 attempts left.")
            try terminal.type("123456")
            try terminal.waitFor("TTY=")
            let screen = try terminal.screen()
            #expect(screen.contains("EXIT=0"), "\(screen)")
            for secret in ["111111", "123456"] { #expect(!screen.contains(secret)) }
        }
    }
}
