import SDK
import SmartCard
import Workflows

#if canImport(Glibc)
import Glibc
#endif

/// The input side of the JSON face: lines arrive on one thread (`feed`), the workflow takes
/// commands on another (`next`). Commands are kept in order, so a script may pipe all its
/// answers ahead; lines that are not commands are answered at once (INVALID,
/// UNKNOWN_COMMAND), and so are CANCEL, which also jumps the queue, and the questions `answer`
/// knows (`InstantAnswers`: GET_INFO, GET_READER, GET_READER_LIST), which the SDK allows in any
/// state. The queue knows nothing of where lines come from: standard input today, a WebSocket
/// message tomorrow.
// Unchecked: the queue state is guarded by `condition`; the closures are the caller's, called
// from the input thread as documented.
public final class CommandQueue: @unchecked Sendable {
    private let condition = Condition()
    private var queue: [SDKCommand] = []
    private var ended = false
    private var cancelled = false
    private let reply: (SDKMessage) -> Void
    private let onCancel: () -> Void
    private let answer: (SDKCommand) -> SDKMessage?

    /// `reply` sends an immediate answer; `onCancel` is called once when CANCEL arrives (to end
    /// a wait for a card at once); `answer` answers a command at once when it can (nil: the
    /// command goes to the queue).
    public init(
        reply: @escaping (SDKMessage) -> Void, onCancel: @escaping () -> Void = {},
        answer: @escaping (SDKCommand) -> SDKMessage? = { _ in nil }
    ) {
        self.reply = reply
        self.onCancel = onCancel
        self.answer = answer
    }

    /// Takes one line of input (a copy: the caller's array is not wiped; input from outside
    /// goes through `feed(wiping:)`).
    public func feed(line: [UInt8]) {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
        take(SDKCommand.parse(line))
    }

    /// Takes one line of input and zeroes it (`SDKCommand.parse(wiping:)`: a secret in it goes
    /// from the line into a `Secret` and nowhere else).
    public func feed(wiping line: UnsafeMutableBufferPointer<UInt8>) {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
            if let base = line.baseAddress { explicit_bzero(base, line.count) }
            return
        }
        take(SDKCommand.parse(wiping: line))
    }

    private func take(_ parsed: SDKCommand.Parsed) {
        switch parsed {
        case .rejected(let message):
            reply(message)
        case .command(.cancel):
            cancel()
        case .command(let command):
            if let message = answer(command) {
                reply(message)
                return
            }
            condition.lock()
            queue.append(command)
            condition.broadcast()
            condition.unlock()
        }
    }

    /// CANCEL, as if it had been read (a stop signal ends the workflow this way).
    public func cancel() {
        condition.lock()
        let first = !cancelled
        cancelled = true
        condition.broadcast()
        condition.unlock()
        if first { onCancel() }
    }

    /// Marks the end of input.
    public func finish() {
        condition.lock()
        ended = true
        condition.broadcast()
        condition.unlock()
    }

    public var isCancelled: Bool {
        condition.lock()
        defer { condition.unlock() }
        return cancelled
    }

    /// The next command: CANCEL first if it arrived, then the queue in order; `.endOfInput`
    /// once the input has ended and the queue is empty.
    public func next(timeout: Double) -> PeerInput {
        let deadline = Deadline(secondsFromNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if cancelled { return .command(.cancel) }
            if !queue.isEmpty { return .command(queue.removeFirst()) }
            if ended { return .endOfInput }
            if deadline.hasPassed { return .timedOut }
            // Wake at least every half second to look at the monotonic deadline.
            condition.wait(seconds: min(0.5, deadline.remaining))
        }
    }
}
