import SmartCard

#if canImport(Glibc)
import Glibc
#endif

/// Why a socket operation did not complete.
enum SocketError: Error, Equatable {
    /// getaddrinfo found no address for the host.
    case unresolvable(String)
    case refused
    /// Another errno from connect, send or recv.
    case failed(String)
    /// The peer closed the connection.
    case closed
    /// The stop flag was raised while waiting.
    case stopped

    static func fromErrno(_ code: Int32 = errno) -> SocketError {
        code == ECONNREFUSED ? .refused : .failed(String(cString: strerror(code)))
    }
}

/// A non-blocking TCP client socket whose every wait is a poll of at most `slice` seconds
/// followed by a look at the stop flag, so a stop request ends any operation within a slice.
final class TCPSocket {
    static let slice: Int32 = 100  // milliseconds

    private let fd: Int32

    private init(fd: Int32) { self.fd = fd }

    deinit { close(fd) }

    /// Connects to `host:port` (IPv4 or IPv6), giving up after `timeout` seconds.
    static func connect(host: String, port: UInt16, timeout: Double, shouldStop: () -> Bool) throws -> TCPSocket {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else {
            throw SocketError.unresolvable(host)
        }
        defer { freeaddrinfo(list) }
        var lastError = SocketError.refused
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let ai = entry {
            entry = ai.pointee.ai_next
            let fd = socket(ai.pointee.ai_family, ai.pointee.ai_socktype, ai.pointee.ai_protocol)
            guard fd >= 0 else {
                lastError = .fromErrno()
                continue
            }
            let socket = TCPSocket(fd: fd)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL, 0) | O_NONBLOCK)
            var one: Int32 = 1
            _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            if Glibc.connect(fd, ai.pointee.ai_addr, ai.pointee.ai_addrlen) == 0 { return socket }
            guard errno == EINPROGRESS else {
                lastError = .fromErrno()
                continue
            }
            do {
                try socket.wait(for: Int16(POLLOUT), timeout: timeout, shouldStop: shouldStop)
            } catch SocketError.stopped {
                throw SocketError.stopped
            } catch {
                lastError = .failed("timed out")
                continue
            }
            var code: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length)
            if code == 0 { return socket }
            lastError = .fromErrno(code)
        }
        throw lastError
    }

    /// Waits until the socket is ready for `events`; throws `.stopped` or, after `timeout`
    /// seconds (nil: no limit), `.failed("timed out")`.
    private func wait(for events: Int16, timeout: Double?, shouldStop: () -> Bool) throws {
        let deadline = timeout.map { Deadline(secondsFromNow: $0) }
        while true {
            if shouldStop() { throw SocketError.stopped }
            var pfd = pollfd(fd: fd, events: events, revents: 0)
            let n = poll(&pfd, 1, TCPSocket.slice)
            if n > 0 { return }
            if n < 0 && errno != EINTR { throw SocketError.fromErrno() }
            if let deadline, deadline.hasPassed { throw SocketError.failed("timed out") }
        }
    }

    /// Reads exactly `count` bytes, waiting as long as it takes (vpcd may be quiet for hours)
    /// but never longer than a slice past a stop request.
    func read(count: Int, shouldStop: () -> Bool) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        var got = 0
        while got < count {
            try wait(for: Int16(POLLIN), timeout: nil, shouldStop: shouldStop)
            let n = out.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + got, count - got, 0) }
            // vpcd writes a frame's length and its payload in two sends without TCP_NODELAY:
            // acknowledge at once, or Nagle on its side waits for our delayed ACK (40 ms a frame).
            // Linux clears TCP_QUICKACK after use, so it is set again after every read.
            var one: Int32 = 1
            _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_QUICKACK, &one, socklen_t(MemoryLayout<Int32>.size))
            if n == 0 { throw SocketError.closed }
            if n < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { continue }
                throw SocketError.fromErrno()
            }
            got += n
        }
        return out
    }

    /// Writes all of `bytes` (no SIGPIPE when the peer is gone).
    func write(_ bytes: [UInt8], shouldStop: () -> Bool) throws {
        var sent = 0
        while sent < bytes.count {
            try wait(for: Int16(POLLOUT), timeout: 10, shouldStop: shouldStop)
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { continue }
                if errno == EPIPE || errno == ECONNRESET { throw SocketError.closed }
                throw SocketError.fromErrno()
            }
            sent += n
        }
    }
}
