import SmartCard

/// The input of one workflow an SDK client runs: the connection pushes each WebSocket message as
/// one line, the JSON face's reader reads them as it reads standard input. Each message waits in
/// a `LockedBuffer` of its own, zeroed as soon as it has been read (it may hold a PIN); `end`
/// is the end of input.
// Unchecked: the state is guarded by `condition`.
final class MessageLines: LineInput, @unchecked Sendable {
    private let condition = Condition()
    private var waiting: [(buffer: LockedBuffer, count: Int)] = []
    /// How much of the first waiting message has been read.
    private var offset = 0
    private var ended = false

    var isTerminal: Bool { false }

    /// Appends `message` and a line feed; line feeds and carriage returns inside it become
    /// spaces (JSON whitespace), so a pretty-printed command stays one line.
    func push(_ message: UnsafeMutableBufferPointer<UInt8>) {
        let buffer = LockedBuffer(count: message.count + 1)
        for (i, byte) in message.enumerated() { buffer.bytes[i] = byte == 0x0A || byte == 0x0D ? 0x20 : byte }
        buffer.bytes[message.count] = 0x0A
        condition.lock()
        if !ended { waiting.append((buffer, message.count + 1)) }
        condition.broadcast()
        condition.unlock()
    }

    /// The end of input: a reader gets what is waiting, then 0.
    func end() {
        condition.lock()
        ended = true
        condition.broadcast()
        condition.unlock()
    }

    func read(into target: UnsafeMutableBufferPointer<UInt8>) -> Int {
        condition.lock()
        defer { condition.unlock() }
        while waiting.isEmpty && !ended { condition.wait(seconds: 0.5) }
        guard let first = waiting.first else { return 0 }
        let count = min(target.count, first.count - offset)
        for i in 0..<count { target[i] = first.buffer.bytes[offset + i] }
        offset += count
        if offset == first.count {
            first.buffer.wipe()
            waiting.removeFirst()
            offset = 0
        }
        return count
    }
}

/// Lines for an SDK client: each line written to the output is one WebSocket message; lines
/// for standard error (the sentences of a failure) go to the server's own standard error.
struct MessageSink: ConsoleSink {
    let send: @Sendable (String) -> Void

    func write(_ text: String, to stream: StandardStream) {
        switch stream {
        case .output:
            for line in text.split(separator: "\n", omittingEmptySubsequences: true) { send(String(line)) }
        case .error:
            stream.write(text)
        }
    }
}

/// No stop signals: a workflow of an SDK client ends through the client's CANCEL or its
/// connection's end, never through the server's signals.
struct NoSignals: SignalSource {
    func watch(
        _ signals: [Int32], onStop: @escaping @Sendable (Int32) -> Void, onSuspend: (@Sendable () -> Void)?
    ) -> any SignalWatch {
        NoSignalWatch()
    }
}

final class NoSignalWatch: SignalWatch {
    var isStopped: Bool { false }
}
