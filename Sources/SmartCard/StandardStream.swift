#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard output or standard error, written with write(2) until every byte is out (what
/// Foundation's `FileHandle` did for the executables, without linking Foundation).
public enum StandardStream: Int32, Sendable {
    case output = 1
    case error = 2

    /// Writes `text`; gives up quietly if the stream is closed (EPIPE, EBADF): a client that
    /// went away cannot be told.
    public func write(_ text: String) {
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(rawValue, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return }
                offset += n
            }
        }
    }
}
