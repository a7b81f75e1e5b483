import OrderedJSON
import SDK
import SmartCard
import Workflows

/// Where a face's lines go: standard output and standard error of the process, or a recorder in
/// a test.
public protocol ConsoleSink: Sendable {
    /// Writes `text` (one or more whole lines) to `stream`.
    func write(_ text: String, to stream: StandardStream)
}

/// The process's standard output and standard error. A terminal that hung up (SIGHUP) or a
/// closed pipe does not end eid here (`StandardStream` gives up quietly): the workflow must
/// still wipe its secrets and reset the card.
public struct StandardStreams: ConsoleSink {
    public init() {}
    public func write(_ text: String, to stream: StandardStream) { stream.write(text) }
}

/// Standard output and standard error, written line by line under one lock so that messages
/// from the workflow thread and replies from the input thread never interleave.
public final class Console: Sendable {
    private let lock = Lock()
    private let sink: any ConsoleSink
    /// The SDK API level its JSON messages are shaped for (SET_API_LEVEL changes it).
    public let apiLevel: Locked<Int>

    public init(sink: any ConsoleSink = StandardStreams(), apiLevel: Locked<Int> = Locked(APILevel.initial)) {
        self.sink = sink
        self.apiLevel = apiLevel
    }

    /// A line for a person. Every human line goes through here or `err`, escaped, so that a
    /// reader name or other outside text with control characters cannot act on the terminal.
    public func out(_ line: String) { write(TerminalSafeText.escaped(line), to: .output) }

    public func err(_ line: String) { write(TerminalSafeText.escaped(line), to: .error) }

    /// Prints one SDK message as one JSON line at the session's API level (raw: the JSON encoder
    /// escapes it).
    public func json(_ message: SDKMessage) {
        write(message.jsonLine(level: apiLevel.withLock { $0 }), to: .output)
    }

    /// Prints a JSON value that is not an SDK message (`eid pair`'s) as one line.
    public func json(_ value: JSONValue) { write(value.text, to: .output) }

    /// Says the reason's sentence on standard error (unless `quiet`) and returns its exit status.
    public func report(_ reason: FailureReason, quiet: Bool = false) -> Int32 {
        if !quiet { err("eid: \(reason.sentence)") }
        return reason.exitStatus
    }

    private func write(_ line: String, to stream: StandardStream) {
        lock.withLock { sink.write(line + "\n", to: stream) }
    }
}
