import SDK
import SmartCard
import Workflows

/// Standard output and standard error, written line by line under one lock so that messages
/// from the workflow thread and replies from the input thread never interleave.
final class Console: @unchecked Sendable {
    static let shared = Console()
    private let lock = Lock()

    /// A line for a person. Every human line goes through here or `err`, escaped, so that a
    /// reader name or other outside text with control characters cannot act on the terminal.
    func out(_ line: String) { write(TerminalSafeText.escaped(line), to: .output) }

    func err(_ line: String) { write(TerminalSafeText.escaped(line), to: .error) }

    /// Prints one SDK message as one JSON line (raw: the JSON encoder escapes it).
    func json(_ message: SDKMessage) { write(message.jsonLine, to: .output) }

    /// A terminal that hung up (SIGHUP) or a closed pipe does not end eid here (StandardStream
    /// gives up quietly): the workflow must still wipe its secrets and reset the card.
    private func write(_ line: String, to stream: StandardStream) {
        lock.lock()
        defer { lock.unlock() }
        stream.write(line + "\n")
    }
}
