import SDK
import SmartCard
import Workflows

#if canImport(Glibc)
import Glibc
#endif

/// The input side of the JSON face: lines arrive on one thread (`feed`), the workflow takes
/// commands on another (`next`). Each command is checked against the workflow's state when it
/// arrives, as AusweisApp's MessageDispatcher does: lines that are not commands are answered at
/// once (INVALID, UNKNOWN_COMMAND), so are the commands allowed in any state (`answer`:
/// GET_INFO, GET_READER, GET_READER_LIST, GET_API_LEVEL, SET_API_LEVEL) and CANCEL, which acts at
/// once; RUN_* and the commands eid does not take get BAD_STATE at once. A command for a
/// question (SET_PIN, SET_CAN, SET_PUK, SET_NEW_PIN, ACCEPT, GET_ACCESS_RIGHTS,
/// SET_ACCESS_RIGHTS, GET_CERTIFICATE) is handed over while the workflow waits at a question
/// that takes it, and gets BAD_STATE at once while it waits at another.
///
/// `feed` returns only when the line has been answered or its command taken by the workflow,
/// so the input is read one command at a time: a command that arrives while the workflow is
/// working (between an answer and its next question, or while it waits for a card) is held, and
/// nothing further is read, until the workflow asks again; then it is checked. So a script may
/// pipe its answers ahead. The queue knows nothing of where lines come from: standard input
/// today, a WebSocket message tomorrow.
// Unchecked: the state is guarded by `condition`; the closures are the caller's, called from the
// input thread as documented.
public final class CommandQueue: @unchecked Sendable {
    private let condition = Condition()
    /// The command handed to the workflow and not yet taken.
    private var pending: SDKCommand?
    /// The name of the last message that asked the client something (ENTER_*, ACCESS_RIGHTS,
    /// INSERT_CARD): AusweisApp's "last state message".
    private var question: String?
    /// Whether the workflow waits for an answer to `question`.
    private var asking = false
    private var ended = false
    private var cancelled = false
    private var closed = false
    private let reply: (SDKMessage) -> Void
    private let onCancel: () -> Void
    private let answer: (SDKCommand) -> SDKMessage?

    /// `reply` sends an immediate answer; `onCancel` is called once when CANCEL arrives (to end
    /// a wait for a card at once); `answer` answers a command allowed in any state (nil: the
    /// command is not one of them).
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
            } else if QuestionRule.isAnswer(command) {
                handOver(command)
            } else {
                // RUN_* while the workflow runs, and the commands eid does not take.
                reply(.badState(command: command.name))
            }
        }
    }

    /// Waits until the workflow asks (or ends), then hands `command` over if the question takes
    /// it, else answers BAD_STATE; returns when the workflow has taken it.
    private func handOver(_ command: SDKCommand) {
        condition.lock()
        while !asking && !closed && !cancelled { condition.wait(seconds: 0.5) }
        if closed || cancelled {
            condition.unlock()
            QuestionRule.wipe(command)
            return
        }
        guard QuestionRule.fits(command, question: question) else {
            condition.unlock()
            QuestionRule.wipe(command)
            reply(.badState(command: command.name))
            return
        }
        pending = command
        condition.broadcast()
        while pending != nil && !closed && !cancelled { condition.wait(seconds: 0.5) }
        condition.unlock()
    }

    /// Sees every message the workflow sends: a question (ENTER_*, ACCESS_RIGHTS) opens the
    /// state in which its answers are taken; INSERT_CARD is a state without a question.
    public func note(_ message: SDKMessage) {
        guard QuestionRule.isStateMessage(message) else { return }
        condition.lock()
        question = message.name
        asking = message != .insertCard
        condition.broadcast()
        condition.unlock()
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

    /// The workflow has ended: a command still held is dropped (its secret wiped), unanswered.
    public func close() {
        condition.lock()
        closed = true
        let dropped = pending
        pending = nil
        condition.broadcast()
        condition.unlock()
        if let dropped { QuestionRule.wipe(dropped) }
    }

    public var isCancelled: Bool {
        condition.lock()
        defer { condition.unlock() }
        return cancelled
    }

    /// The next command: CANCEL first if it arrived, then the command handed over;
    /// `.endOfInput` once the input has ended and nothing is held. Asking re-opens the last
    /// question (the workflow asks again after answering GET_CERTIFICATE, say).
    public func next(timeout: Double) -> PeerInput {
        let deadline = Deadline(secondsFromNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        if question != nil && question != SDKMessage.insertCard.name {
            asking = true
            condition.broadcast()
        }
        while true {
            if cancelled { return .command(.cancel) }
            if let command = pending {
                pending = nil
                asking = false
                condition.broadcast()
                return .command(command)
            }
            if ended { return .endOfInput }
            if deadline.hasPassed { return .timedOut }
            // Wake at least every half second to look at the monotonic deadline.
            condition.wait(seconds: min(0.5, deadline.remaining))
        }
    }
}
