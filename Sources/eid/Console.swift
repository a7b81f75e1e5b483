import CardAccess
import SDK

/// Standard output and standard error, written line by line under one lock so that messages
/// from the workflow thread and replies from the input thread never interleave.
final class Console: @unchecked Sendable {
    static let shared = Console()
    private let lock = Lock()

    func out(_ line: String) {
        lock.lock()
        defer { lock.unlock() }
        StandardStream.output.write(line + "\n")
    }

    func err(_ line: String) {
        lock.lock()
        defer { lock.unlock() }
        StandardStream.error.write(line + "\n")
    }

    /// Prints one SDK message as one JSON line.
    func json(_ message: SDKMessage) { out(message.jsonLine) }
}
