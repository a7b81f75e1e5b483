#if canImport(Glibc)
import Glibc
#endif

/// The bytes a face reads its commands from: standard input, or a script in a test.
public protocol LineInput: Sendable {
    /// Whether the input is a terminal (a person typing) rather than a pipe or file.
    var isTerminal: Bool { get }
    /// Reads at most `buffer.count` bytes into `buffer`; the count read, 0 at the end of input
    /// (an error ends the input too).
    func read(into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int
}

/// File descriptor 0.
public struct StandardInput: LineInput {
    public init() {}

    public var isTerminal: Bool { isatty(0) == 1 }

    public func read(into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        while true {
            let n = Glibc.read(0, buffer.baseAddress, buffer.count)
            if n < 0 && errno == EINTR { continue }
            return max(0, n)
        }
    }
}
