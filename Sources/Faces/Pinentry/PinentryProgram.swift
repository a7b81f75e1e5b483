#if canImport(Glibc)
import Glibc
#endif

/// Which pinentry program asks, and how: `eid serve --pinentry PROGRAM` (default `pinentry`,
/// which Debian's alternatives point at pinentry-gnome3, -qt or -curses). A terminal pinentry
/// (pinentry-curses, pinentry-tty) draws on the terminal named by `GPG_TTY`, as gpg-agent tells it.
public struct PinentryProgram: Sendable, Equatable {
    /// The program, looked up on PATH.
    public var program: String
    /// Arguments before any eid passes (none today), e.g. a pinentry's `--debug`.
    public var arguments: [String]
    /// Seconds to wait for an answer to a command that asks nobody (the greeting, SETDESC, …).
    public var replyTimeout: Double = 10
    /// OPTION ttyname and ttytype: the terminal a terminal pinentry draws on, and its type.
    public var ttyName: String?
    public var ttyType: String?

    public init(program: String = "pinentry", arguments: [String] = []) {
        self.program = program
        self.arguments = arguments
    }

    /// `program` with the terminal of `GPG_TTY` and `TERM`, as gpg-agent passes them.
    public static func fromEnvironment(program: String = "pinentry") -> PinentryProgram {
        var made = PinentryProgram(program: program)
        made.ttyName = Self.variable("GPG_TTY")
        made.ttyType = Self.variable("TERM")
        return made
    }

    /// Whether the program can be run: a path that is executable, or a name found on PATH.
    public var isInstalled: Bool {
        if program.contains("/") { return access(program, X_OK) == 0 }
        let path = Self.variable("PATH") ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { access("\($0)/\(program)", X_OK) == 0 }
    }

    private static func variable(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }
}
