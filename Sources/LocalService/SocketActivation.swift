#if canImport(Glibc)
import Glibc
#endif

/// systemd's socket activation (sd_listen_fds(3)): when `LISTEN_PID` is this process, the
/// `LISTEN_FDS` listening sockets from file descriptor 3 on are the service's; they are taken
/// once (the variables are removed, so a child does not take them too).
public enum SocketActivation {
    /// The first file descriptor passed (SD_LISTEN_FDS_START).
    public static let firstDescriptor: Int32 = 3

    /// The passed descriptors in `environment` for process `pid`; empty when none are meant for it.
    public static func descriptors(environment: [String: String], pid: Int32) -> [Int32] {
        guard let listenPID = environment["LISTEN_PID"].flatMap(Int32.init), listenPID == pid,
            let count = environment["LISTEN_FDS"].flatMap(Int32.init), count > 0, count < 1024
        else { return [] }
        return (0..<count).map { firstDescriptor + $0 }
    }

    /// The descriptors passed to this process, taken from its environment (then removed).
    public static func take() -> [Int32] {
        var environment: [String: String] = [:]
        for name in ["LISTEN_PID", "LISTEN_FDS"] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        let found = descriptors(environment: environment, pid: getpid())
        for name in ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"] { unsetenv(name) }
        for descriptor in found { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        return found
    }
}
