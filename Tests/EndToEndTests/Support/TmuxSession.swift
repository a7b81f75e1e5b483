import Foundation

/// A program running on a pseudo-terminal under tmux, read with capture-pane and typed to
/// with send-keys: how a person at a terminal meets eid.
final class TmuxSession {
    let socket = "eid-e2e-\(UUID().uuidString.prefix(8))"

    /// Starts `command` (a shell command line) in a new tmux server of its own; when it ends,
    /// the line "EXIT=<status>" and then "TTY=echo" or "TTY=-echo" (the terminal's echo
    /// setting) are printed.
    init(_ command: String, environment: [String: String] = [:]) throws {
        var args = ["new-session", "-d", "-x", "200", "-y", "50"]
        for (k, v) in environment.merging(
            ["PCSCLITE_CSOCK_NAME": E2E.environment["PCSCLITE_CSOCK_NAME"] ?? ""], uniquingKeysWith: { a, _ in a })
        {
            args += ["-e", "\(k)=\(v)"]
        }
        args.append(
            "\(command); echo EXIT=$?; echo TTY=$(stty -a | grep -o -- ' -*echo ' | head -1 | tr -d ' '); sleep 60")
        try tmux(args)
        serverPID =
            Int32(try tmux(["display-message", "-p", "#{pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    /// The tmux server this session started, ended by PID should kill-server leave it running.
    private var serverPID: Int32 = 0

    deinit {
        _ = try? tmux(["kill-server"])
        if serverPID > 0 { kill(serverPID, SIGKILL) }
    }

    func screen() throws -> String {
        try tmux(["capture-pane", "-p", "-S", "-500"])
    }

    /// Waits until the screen shows `text` (at least `count` times).
    func waitFor(_ text: String, count: Int = 1, timeout: Double = 20) throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while Date() < deadline {
            if try screen().components(separatedBy: text).count - 1 >= count { return }
            usleep(100_000)
        }
        throw E2EError.timeout("the terminal did not show \"\(text)\"; it shows:\n\(try screen())")
    }

    /// Types `text` and Enter.
    func type(_ text: String) throws {
        if !text.isEmpty { try tmux(["send-keys", "-l", text]) }
        try tmux(["send-keys", "Enter"])
    }

    func interrupt() throws { try tmux(["send-keys", "C-c"]) }

    /// A value of the pane, e.g. "#{pane_pid}" or "#{pane_tty}".
    func pane(_ format: String) throws -> String {
        try tmux(["display-message", "-p", format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Ctrl-D on an empty line: end of input.
    func sendEndOfInput() throws { try tmux(["send-keys", "C-d"]) }

    /// Runs tmux through posix_spawn and waitpid. (Foundation's Process never sees the first
    /// call end: the tmux server it starts inherits the descriptor Process watches.)
    @discardableResult
    private func tmux(_ args: [String]) throws -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket)-\(UUID().uuidString).out")
        defer { try? FileManager.default.removeItem(at: output) }
        let argv = ["tmux", "-L", socket] + args
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var cArgs = argv.map { strdup($0) } + [nil]
        defer { for arg in cArgs { free(arg) } }
        var pid: pid_t = 0
        let rc = posix_spawnp(&pid, "tmux", &actions, nil, &cArgs, environ)
        guard rc == 0 else { throw E2EError.unexpected("tmux did not start: \(rc)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (try? String(contentsOf: output, encoding: .utf8)) ?? ""
    }
}
