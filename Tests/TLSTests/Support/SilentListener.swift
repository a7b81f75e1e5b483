import Foundation

/// A TCP socket on 127.0.0.1 that listens and never says a word: the kernel completes the TCP handshake, the
/// TLS handshake then waits forever.
final class SilentListener: @unchecked Sendable {  // the descriptor is only closed
    let descriptor: Int32
    let port: Int

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.descriptor = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && listen(descriptor, 8) == 0
                    && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound else { throw PeerError.failed("listen") }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Waits until a client's connection is in the listen queue (never accepted), at most `timeout` seconds.
    func waitForConnection(timeout: Double) -> Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, Int32(timeout * 1000)) == 1
    }

    func close() { _ = Glibc.close(descriptor) }
}
