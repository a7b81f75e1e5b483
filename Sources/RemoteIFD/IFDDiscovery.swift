import SmartCard

#if canImport(Glibc)
import Glibc
#endif

/// Listens for the phones' UDP announcements on port 24727 (`EID_IFD_DISCOVERY_PORT` overrides it,
/// for tests) for a bounded time. The socket shares the port (SO_REUSEADDR), so several eid
/// processes can listen at once; datagrams that are not announcements are ignored.
public final class IFDDiscovery {
    public static let defaultPort: UInt16 = 24727
    private let fd: Int32

    /// The port from the environment, else 24727.
    public static func port(environment: (String) -> String? = { getenv($0).map { String(cString: $0) } }) -> UInt16 {
        environment("EID_IFD_DISCOVERY_PORT").flatMap { UInt16($0) }.flatMap { $0 == 0 ? nil : $0 } ?? defaultPort
    }

    /// Opens the socket on all IPv4 addresses at `port`.
    public init(port: UInt16 = IFDDiscovery.port()) throws(IFDDiscoveryError) {
        fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .cannotListen(port: port, Self.errnoText()) }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = INADDR_ANY
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            let why = Self.errnoText()
            close(fd)
            throw .cannotListen(port: port, why)
        }
    }

    deinit { close(fd) }

    /// The next announcement within `timeout` seconds, nil when none came.
    public func next(timeout: Double) -> IFDAnnouncement? {
        let deadline = Deadline(secondsFromNow: timeout)
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while !deadline.hasPassed {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(deadline.remaining * 1000, 60_000)) + 1)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            var sender = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let n = buffer.withUnsafeMutableBytes { raw in
                withUnsafeMutablePointer(to: &sender) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        recvfrom(fd, raw.baseAddress, raw.count, 0, $0, &length)
                    }
                }
            }
            guard n > 0 else { continue }
            if let announcement = IFDAnnouncement(datagram: Array(buffer[0..<n]), sender: Self.text(sender.sin_addr)) {
                return announcement
            }
        }
        return nil
    }

    /// Every phone heard within `timeout` seconds (the latest announcement of each), in the order
    /// first heard; ends early when `until` is true of one.
    public func collect(timeout: Double, until: (IFDAnnouncement) -> Bool = { _ in false }) -> [IFDAnnouncement] {
        let deadline = Deadline(secondsFromNow: timeout)
        var heard: [IFDAnnouncement] = []
        while let announcement = next(timeout: deadline.remaining) {
            if let index = heard.firstIndex(where: { $0.ifdID == announcement.ifdID }) {
                heard[index] = announcement
            } else {
                heard.append(announcement)
            }
            if until(announcement) { break }
        }
        return heard
    }

    static func text(_ address: in_addr) -> String {
        var copy = address
        var buffer = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
        guard inet_ntop(AF_INET, &copy, &buffer, socklen_t(buffer.count)) != nil else { return "" }
        return String(cString: buffer)
    }

    static func errnoText() -> String { String(cString: strerror(errno)) }
}
