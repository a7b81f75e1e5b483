import SDK
import SmartCard

#if canImport(Glibc)
import Glibc
#endif

/// Reads its line input (standard input) on a thread of its own and feeds each line to a command queue. The
/// bytes go through two fixed buffers, allocated once and zeroed after use, since a line may
/// hold a PIN: nothing grows, so no copy is left behind in freed memory. A line longer than
/// `maximumLineLength` is answered with INVALID and dropped as a whole.
public final class StandardInputReader: Sendable {
    /// Far more than any SDK command eid takes (the longest, SET_PUK, is about 40 bytes).
    public static let maximumLineLength = 4096

    let queue: CommandQueue
    let input: any LineInput
    let console: Console

    public init(queue: CommandQueue, input: any LineInput, console: Console) {
        self.queue = queue
        self.input = input
        self.console = console
    }

    public func start() {
        let queue = self.queue
        let input = self.input
        let console = self.console
        _ = DetachedThread.start {
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
                    console.json(
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
                let n = input.read(into: chunk)
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
