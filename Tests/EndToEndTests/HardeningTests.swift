import Foundation
import Testing

/// Signals at a secret prompt, core dumps, bounded input lines, and a card that stops answering.
extension ThroughPCSCD {
    @Suite struct HardeningTests {
        func eid(_ reader: String) -> String {
            "'\(E2E.binDir.appendingPathComponent("eid").path)' change-pin --reader '\(reader)' --timeout 20"
        }

        func echoIsOn(_ screen: String) -> Bool {
            screen.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces) == "TTY=echo" }
        }

        /// The eid process the tmux pane's shell started.
        func eidProcess(in terminal: TmuxSession) throws -> pid_t {
            let shell = try terminal.pane("#{pane_pid}")
            let deadline = Date(timeIntervalSinceNow: 10)
            while Date() < deadline {
                for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
                    guard let pid = Int32(entry), let stat = processStat(pid) else { continue }
                    if stat.name == "eid" && stat.parent == shell { return pid }
                }
                usleep(100_000)
            }
            throw E2EError.timeout("no eid process under the tmux shell \(shell)")
        }

        /// (command name, state letter, parent PID) from /proc/<pid>/stat.
        func processStat(_ pid: pid_t) -> (name: String, state: String, parent: String)? {
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")")
            else { return nil }
            let rest = text[text.index(after: close)...].split(separator: " ")
            guard rest.count > 2 else { return nil }
            return (String(text[text.index(after: open)..<close]), String(rest[0]), String(rest[1]))
        }

        func waitForState(_ pid: pid_t, _ state: String) throws {
            let deadline = Date(timeIntervalSinceNow: 10)
            while Date() < deadline {
                if processStat(pid)?.state == state { return }
                usleep(50_000)
            }
            throw E2EError.timeout("eid (\(pid)) did not reach state \(state)")
        }

        /// Whether the pane's terminal echoes, read from the terminal itself.
        func paneEchoes(_ terminal: TmuxSession) throws -> Bool {
            let fd = open(try terminal.pane("#{pane_tty}"), O_RDWR | O_NOCTTY)
            guard fd >= 0 else { throw E2EError.unexpected("cannot open the pane's terminal") }
            defer { close(fd) }
            var settings = termios()
            guard tcgetattr(fd, &settings) == 0 else { throw E2EError.unexpected("tcgetattr failed") }
            return settings.c_lflag & tcflag_t(ECHO) != 0
        }

        @Test(arguments: [SIGQUIT, SIGHUP, SIGTERM])
        func stopSignalAtThePromptRestoresTheTerminal(signal: Int32) throws {
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(reader: reader, port: port)
                defer { card.stop() }
                let terminal = try TmuxSession(eid(reader))
                try terminal.waitFor("PIN (6 digits")
                let pid = try eidProcess(in: terminal)
                #expect(try !paneEchoes(terminal), "echo is off at the prompt")
                kill(pid, signal)
                try terminal.waitFor("TTY=")
                let screen = try terminal.screen()
                #expect(screen.contains("EXIT=130"), "\(screen)")
                #expect(screen.contains("cancelled; the PIN was not changed"), "\(screen)")
                #expect(echoIsOn(screen), "echo is back on: \(screen)")
                // The card was let go (and reset): the next program gets it at once.
                let next = try runTool("eid", ["readers", "--json"])
                let entry = try readerEntry(reader, in: next.stdout)
                #expect((entry["card"] as? [String: Any])?["retryCounter"] as? Int == 3, "\(next.stdout)")
            }
        }

        @Test func coreDumpsAreOffWhileAskingForTheSecret() throws {
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(reader: reader, port: port)
                defer { card.stop() }
                // The shell allows core dumps; eid must take that back for itself.
                let terminal = try TmuxSession("ulimit -c unlimited; " + eid(reader))
                try terminal.waitFor("PIN (6 digits")
                let pid = try eidProcess(in: terminal)
                let limits = try String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8)
                let core = limits.split(separator: "\n").first { $0.hasPrefix("Max core file size") }
                let words = core.map { $0.split(separator: " ") } ?? []
                #expect(words.count >= 6 && words[4] == "0" && words[5] == "0", "\(core ?? "")")
                try terminal.interrupt()
                try terminal.waitFor("TTY=")
            }
        }

        @Test func ctrlZAtThePromptStopsWithEchoOnAndAsksAgainAfterContinue() throws {
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(reader: reader, port: port)
                defer { card.stop() }
                let terminal = try TmuxSession(eid(reader))
                let prompt = "PIN (6 digits, or 5 for the transport PIN):"
                try terminal.waitFor(prompt)
                let pid = try eidProcess(in: terminal)
                kill(pid, SIGTSTP)
                try waitForState(pid, "T")
                #expect(try paneEchoes(terminal), "echo is on while eid is stopped")
                kill(pid, SIGCONT)
                try terminal.waitFor(prompt, count: 2)
                #expect(try !paneEchoes(terminal), "echo is off again at the repeated prompt")
                try terminal.type("123456")
                try terminal.waitFor("New PIN:")
                try terminal.type("654321")
                try terminal.waitFor("Repeat new PIN:")
                try terminal.type("654321")
                try terminal.waitFor("TTY=")
                let screen = try terminal.screen()
                #expect(screen.contains("Done: the PIN has been changed."), "\(screen)")
                #expect(screen.contains("EXIT=0"))
                #expect(echoIsOn(screen))
                for secret in ["123456", "654321"] { #expect(!screen.contains(secret), "\(secret) on screen") }
            }
        }

        @Test func overlongAnswerAtThePromptIsRefusedAndAskedAgain() throws {
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(reader: reader, port: port)
                defer { card.stop() }
                let terminal = try TmuxSession(eid(reader))
                try terminal.waitFor("PIN (6 digits")
                let long = String(repeating: "1234567890", count: 5)
                try terminal.type(long)
                try terminal.waitFor("Too long: at most 32 characters. Try again.")
                try terminal.waitFor("PIN (6 digits", count: 2)
                try terminal.type("123456")
                try terminal.waitFor("New PIN:")
                try terminal.type("654321")
                try terminal.waitFor("Repeat new PIN:")
                try terminal.type("654321")
                try terminal.waitFor("TTY=")
                let screen = try terminal.screen()
                #expect(
                    screen.contains("Done: the PIN has been changed."), "the card never saw the long line: \(screen)")
                #expect(!screen.contains("Wrong PIN"))
                #expect(!screen.contains(long))
            }
        }

        @Test func overlongJSONLineIsInvalidAndChangesNothing() throws {
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(reader: reader, port: port)
                defer { card.stop() }
                let long = #"{"cmd":"SET_PIN","value":""# + String(repeating: "1", count: 5000) + #""}"#
                let answers = [
                    long, #"{"cmd":"SET_PIN","value":"123456"}"#, #"{"cmd":"SET_NEW_PIN","value":"654321"}"#,
                ]
                let result = try runTool(
                    "eid", ["change-pin", "--json", "--reader", reader, "--timeout", "10"],
                    stdin: answers.map { $0 + "\n" }.joined())
                #expect(result.status == 0, "\(result.stderr)")
                let messages = try result.stdoutLines.map(jsonObject)
                let invalid = messages.filter { $0["msg"] as? String == "INVALID" }
                #expect(invalid.count == 1)
                #expect((invalid.first?["error"] as? String)?.contains("too long") == true, "\(result.stdout)")
                #expect(messages.filter { $0["msg"] as? String == "ENTER_PIN" }.count == 1, "no attempt was spent")
                #expect(result.stdoutLines.last == #"{"msg":"CHANGE_PIN","success":true}"#)
            }
        }

        @Test func cardThatStopsAnsweringEndsInAClearError() throws {
            try E2E.pool.withReader { reader, port in
                // eid readers (while the test waits for the card) and change-pin up to the PIN
                // prompt send 4 APDUs (READ BINARY, MSE:Set AT each); the card then hangs in the middle of PACE.
                let card = try SimulatedCard(
                    reader: reader, port: port, arguments: ["--stall-after", "\(Self.stallAfter)"])
                defer { card.stop() }
                let started = Date()
                let result = try runTool(
                    "eid", ["change-pin", "--json", "--reader", reader, "--timeout", "60"],
                    stdin: #"{"cmd":"SET_PIN","value":"123456"}"# + "\n", timeout: 40)
                let elapsed = Date().timeIntervalSince(started)
                #expect(result.status == 4, "\(result.stderr)")
                #expect(result.stderr.contains("the card did not answer in time"), "\(result.stderr)")
                #expect(
                    result.stdoutLines.last
                        == #"{"msg":"CHANGE_PIN","success":false,"reason":"Change_Pin_Unrecoverable"}"#)
                #expect(elapsed < 30, "ended after \(elapsed) s")
            }
        }

        static let stallAfter = 6
    }
}
