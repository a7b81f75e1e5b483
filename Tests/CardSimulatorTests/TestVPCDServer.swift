import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A tiny vpcd stand-in for tests: listens on 127.0.0.1 (ephemeral port), accepts the card's
/// connection and exchanges length-prefixed frames. Every wait has a timeout.
final class TestVPCDServer {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let port: UInt16
    private let listener: Int32
    private var client: Int32 = -1

    /// `port` 0: an ephemeral one.
    init(port: UInt16 = 0) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var one: Int32 = 1
        _ = setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(listener, 4) == 0 else {
            close(listener)
            throw Failure(description: "cannot listen: \(String(cString: strerror(errno)))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        self.listener = listener
        self.port = UInt16(bigEndian: addr.sin_port)
    }

    deinit {
        if client >= 0 { close(client) }
        close(listener)
    }

    private func waitReadable(_ fd: Int32, timeout: Double) throws {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&pfd, 1, Int32(timeout * 1000)) > 0 else { throw Failure(description: "timed out") }
    }

    /// Accepts the next connection (closing the previous one).
    func accept(timeout: Double = 30) throws {
        try waitReadable(listener, timeout: timeout)
        if client >= 0 { close(client) }
        client = Glibc.accept(listener, nil, nil)
        guard client >= 0 else { throw Failure(description: "accept failed") }
    }

    /// Closes the accepted connection (vpcd going away).
    func dropClient() {
        if client >= 0 { close(client) }
        client = -1
    }

    func send(_ payload: [UInt8]) throws {
        let frame = [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)] + payload
        let n = frame.withUnsafeBytes { Glibc.send(client, $0.baseAddress!, frame.count, Int32(MSG_NOSIGNAL)) }
        guard n == frame.count else { throw Failure(description: "send failed") }
    }

    private func read(_ count: Int, timeout: Double) throws -> [UInt8] {
        var out: [UInt8] = []
        while out.count < count {
            try waitReadable(client, timeout: timeout)
            var buffer = [UInt8](repeating: 0, count: count - out.count)
            let n = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress!, $0.count, 0) }
            guard n > 0 else { throw Failure(description: "connection closed") }
            out += buffer[..<n]
        }
        return out
    }

    /// Reads one frame and returns its payload.
    func receive(timeout: Double = 30) throws -> [UInt8] {
        let header = try read(2, timeout: timeout)
        return try read(Int(header[0]) << 8 | Int(header[1]), timeout: timeout)
    }

    /// Whether nothing arrives within `timeout` (for control codes that have no answer).
    func staysQuiet(timeout: Double = 0.3) -> Bool {
        var pfd = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
        return poll(&pfd, 1, Int32(timeout * 1000)) == 0
    }
}
