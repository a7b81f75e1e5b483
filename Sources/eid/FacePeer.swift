import CardAccess
import SDK
import Workflows
#if canImport(Glibc)
import Glibc
#endif

/// Joins an output (JSON lines, or sentences) and an input (JSON commands on standard input, or
/// prompts on the terminal) into the peer a workflow talks to.
final class FacePeer: SDKPeer {
    enum Output {
        case json
        case sentences(TerminalFace)
    }

    enum Input {
        case commands(CommandQueue)
        case terminal(TerminalFace)
    }

    let output: Output
    let input: Input
    /// Sees every message before it goes out.
    var observe: (SDKMessage) -> Void = { _ in }

    init(output: Output, input: Input) {
        self.output = output
        self.input = input
    }

    func send(_ message: SDKMessage) {
        observe(message)
        // The terminal input learns which secret to ask for from the ENTER_* messages.
        if case .terminal(let face) = input, case .json = output { _ = face.render(message) }
        switch output {
        case .json:
            Console.shared.json(message)
        case .sentences(let face):
            if let line = face.render(message) { Console.shared.out(line) }
        }
    }

    func nextCommand(timeout: Double) -> PeerInput {
        switch input {
        case .commands(let queue): return queue.next(timeout: timeout)
        case .terminal(let face): return face.nextCommand(timeout: timeout)
        }
    }

    var isCancelled: Bool {
        if case .commands(let queue) = input { return queue.isCancelled }
        return false
    }
}

/// Reads standard input on a thread of its own and feeds each line to a command queue; the
/// line buffers are zeroed after use, since they may hold a PIN.
final class StandardInputReader: @unchecked Sendable {
    let queue: CommandQueue

    init(queue: CommandQueue) { self.queue = queue }

    func start() {
        let queue = self.queue
        DetachedThread.start {
            var pending: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            defer {
                Secret.zero(&pending)
                Secret.zero(&buffer)
            }
            while true {
                let n = read(0, &buffer, buffer.count)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                pending += buffer[0..<n]
                while let newline = pending.firstIndex(of: 0x0A) {
                    var line = Array(pending[..<newline])
                    queue.feed(line: line)
                    Secret.zero(&line)
                    let rest = Array(pending[(newline + 1)...])
                    Secret.zero(&pending)
                    pending = rest
                }
            }
            if !pending.isEmpty { queue.feed(line: pending) }
            queue.finish()
        }
    }
}
