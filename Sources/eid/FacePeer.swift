import SDK
import SmartCard
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
        switch input {
        case .commands(let queue): return queue.isCancelled
        case .terminal(let face): return face.isInterrupted
        }
    }
}

/// Reads standard input on a thread of its own and feeds each line to a command queue. The
/// bytes go through two fixed buffers, allocated once and zeroed after use, since a line may
/// hold a PIN: nothing grows, so no copy is left behind in freed memory. A line longer than
/// `maximumLineLength` is answered with INVALID and dropped as a whole.
final class StandardInputReader: @unchecked Sendable {
    /// Far more than any SDK command eid takes (the longest, SET_PUK, is about 40 bytes).
    static let maximumLineLength = 4096

    let queue: CommandQueue

    init(queue: CommandQueue) { self.queue = queue }

    func start() {
        let queue = self.queue
        DetachedThread.start {
            let line = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: StandardInputReader.maximumLineLength)
            let chunk = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 1024)
            line.initialize(repeating: 0)
            chunk.initialize(repeating: 0)
            defer {
                explicit_bzero(line.baseAddress!, line.count)
                explicit_bzero(chunk.baseAddress!, chunk.count)
                line.deallocate()
                chunk.deallocate()
            }
            var count = 0
            var overflow = false
            func deliver() {
                if overflow {
                    Console.shared.json(
                        .invalid(error: "The line is too long: at most \(StandardInputReader.maximumLineLength) bytes"))
                } else {
                    // Made at its final size (no regrowth) and zeroed after use.
                    var bytes = Array(UnsafeBufferPointer(rebasing: line[0..<count]))
                    queue.feed(line: bytes)
                    Secret.zero(&bytes)
                }
                explicit_bzero(line.baseAddress!, line.count)
                count = 0
                overflow = false
            }
            while true {
                let n = read(0, chunk.baseAddress, chunk.count)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                for i in 0..<n {
                    let byte = chunk[i]
                    if byte == 0x0A {
                        deliver()
                    } else if count < line.count {
                        line[count] = byte
                        count += 1
                    } else {
                        overflow = true
                    }
                }
                explicit_bzero(chunk.baseAddress!, n)
            }
            if count > 0 || overflow { deliver() }
            queue.finish()
        }
    }
}
