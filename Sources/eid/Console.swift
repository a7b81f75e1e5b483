import Foundation
import SDK

/// Standard output and standard error, written line by line under one lock so that messages
/// from the workflow thread and replies from the input thread never interleave.
final class Console: @unchecked Sendable {
    static let shared = Console()
    private let lock = NSLock()

    func out(_ line: String) {
        lock.lock()
        defer { lock.unlock() }
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    func err(_ line: String) {
        lock.lock()
        defer { lock.unlock() }
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Prints one SDK message as one JSON line.
    func json(_ message: SDKMessage) { out(message.jsonLine) }
}
