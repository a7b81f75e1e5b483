import Foundation
import Glibc

extension E2E {
    /// A loopback TCP port nothing listens on now: the kernel's pick for port 0, bound and
    /// closed again (a server started next takes it; a client dialling it is refused).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw E2EError.unexpected("socket") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(fd, generic, length) == 0 && getsockname(fd, generic, &length) == 0
            }
        }
        guard bound else { throw E2EError.unexpected("no free loopback port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
