import Foundation
import Testing

/// `eid change-pin` as a person uses it: prompts on a pseudo-terminal (tmux), echo off, the
/// typed digits never on the screen.
extension ThroughPCSCD {
    @Suite struct TerminalFaceTests {
        /// The session prints stty's echo flag after eid ends: "TTY=echo", or "TTY=-echo" when off.
        func echoIsOn(_ screen: String) -> Bool {
            screen.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces) == "TTY=echo" }
        }

        func eid(_ reader: String) -> String {
            "'\(E2E.binDir.appendingPathComponent("eid").path)' change-pin --reader '\(reader)' --timeout 20"
        }

        @Test func transportPINIsReplacedAtTheTerminal() throws {
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(
                    reader: reader, port: port, arguments: ["--pin", "12345", "--transport-pin"])
                defer { card.stop() }
                let terminal = try TmuxSession(eid(reader))
                try terminal.waitFor("PIN (6 digits, or 5 for the transport PIN):")
                try terminal.type("12345")
                try terminal.waitFor("New PIN:")
                try terminal.type("654321")
                try terminal.waitFor("Repeat new PIN:")
                try terminal.type("654320")
                try terminal.waitFor("The two entries differ. Try again.")
                try terminal.type("654321")
                try terminal.waitFor("Repeat new PIN:")
                try terminal.type("654321")
                try terminal.waitFor("TTY=")
                let screen = try terminal.screen()
                #expect(screen.contains("Done: the PIN has been changed."))
                #expect(screen.contains("EXIT=0"))
                for secret in ["12345", "654321", "654320"] { #expect(!screen.contains(secret), "\(secret) on screen") }
                #expect(echoIsOn(screen), "the terminal echoes again afterwards")
            }
        }

        @Test func wrongPINThenCANThenPINAtTheTerminal() throws {
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(reader: reader, port: port, arguments: ["--pin-retries", "2"])
                defer { card.stop() }
                let terminal = try TmuxSession(eid(reader))
                try terminal.waitFor("PIN (6 digits")
                try terminal.type("12a456")
                try terminal.waitFor("Not accepted: You must provide 5 or 6 digits.")
                try terminal.type("111111")
                try terminal.waitFor("The PIN is suspended after two wrong attempts.")
                try terminal.waitFor("CAN (6 digits, printed on the front of the card):")
                try terminal.type("500540")
                try terminal.waitFor("PIN (6 digits", count: 3)
                try terminal.type("123456")
                try terminal.waitFor("New PIN:")
                try terminal.type("654321")
                try terminal.waitFor("Repeat new PIN:")
                try terminal.type("654321")
                try terminal.waitFor("TTY=")
                let screen = try terminal.screen()
                #expect(screen.contains("Done: the PIN has been changed."), "\(screen)")
                #expect(screen.contains("EXIT=0"))
                for secret in ["12a456", "111111", "500540", "123456", "654321"] {
                    #expect(!screen.contains(secret), "\(secret) on screen")
                }
            }
        }

        @Test func ctrlCRestoresTheTerminalAndCancels() throws {
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(reader: reader, port: port)
                defer { card.stop() }
                let terminal = try TmuxSession(eid(reader))
                try terminal.waitFor("PIN (6 digits")
                try terminal.interrupt()
                try terminal.waitFor("TTY=")
                let screen = try terminal.screen()
                #expect(screen.contains("EXIT=130"), "\(screen)")
                #expect(screen.contains("cancelled"))
                #expect(echoIsOn(screen), "echo is back on: \(screen)")
            }
        }

        @Test func endOfInputAtThePromptCancels() throws {
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(reader: reader, port: port)
                defer { card.stop() }
                let terminal = try TmuxSession(eid(reader))
                try terminal.waitFor("PIN (6 digits")
                try terminal.sendEndOfInput()
                try terminal.waitFor("TTY=")
                #expect(try terminal.screen().contains("EXIT=5"))
            }
        }
    }
}
