import SDK
import SmartCard

#if canImport(Glibc)
import Glibc
#endif

/// Reads its line input (standard input) on a thread of its own and feeds each line to a command queue. The
/// bytes go through two fixed `LockedBuffer`s (locked into RAM where the system allows it),
/// allocated once and zeroed after use, since a line may hold a PIN: nothing grows, so no copy is
/// left behind in freed memory, and the line itself is parsed in place (`CommandQueue.feed(wiping:)`).
/// A line longer than `maximumLineLength` is answered with INVALID and dropped as a whole.
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
            let lineBuffer = LockedBuffer(count: StandardInputReader.maximumLineLength)
            let chunkBuffer = LockedBuffer(count: 1024)
            let line = lineBuffer.bytes
            let chunk = chunkBuffer.bytes
            var count = 0
            var overflow = false
            func deliver() {
                if overflow {
                    console.json(
                        .invalid(error: "The line is too long: at most \(StandardInputReader.maximumLineLength) bytes"))
                } else {
                    queue.feed(wiping: UnsafeMutableBufferPointer(rebasing: line[0..<count]))
                }
                lineBuffer.wipe()
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
            // The buffers are zeroed when they go (LockedBuffer's deinit), at the end of input.
            withExtendedLifetime((lineBuffer, chunkBuffer)) {}
            queue.finish()
        }
    }
}
