import Foundation
import SDK
import Workflows

/// Standard output and standard error, written line by line under one lock so that messages
/// from the workflow thread and replies from the input thread never interleave.
final class Console: @unchecked Sendable {
    static let shared = Console()
    private let lock = NSLock()

    /// A line for a person. Every human line goes through here or `err`, escaped, so that a
    /// reader name or other outside text with control characters cannot act on the terminal.
    func out(_ line: String) { write(TerminalSafeText.escaped(line), to: .standardOutput) }

    func err(_ line: String) { write(TerminalSafeText.escaped(line), to: .standardError) }

    /// Prints one SDK message as one JSON line (raw: the JSON encoder escapes it).
    func json(_ message: SDKMessage) { write(message.jsonLine, to: .standardOutput) }

    private func write(_ line: String, to handle: FileHandle) {
        lock.lock()
        defer { lock.unlock() }
        // A terminal that hung up (SIGHUP) or a closed pipe must not end eid here: the workflow
        // still has to wipe its secrets and reset the card.
        try? handle.write(contentsOf: Data((line + "\n").utf8))
    }
}
