#if canImport(Glibc)
import Glibc
#endif

/// `eid auth --open`: hands the address to continue at to the desktop's opener, `xdg-open`, the
/// way a browser-started eID client sends the browser on. Only an https address is handed over,
/// as one argument of its own (`posix_spawnp`, never a shell); the opener's standard output goes
/// to /dev/null, and so does its standard error when `quiet` (JSON mode: nothing of it mixes
/// into the SDK messages); no other descriptor of eid's is passed on (`Spawn.closeOthers`). eid
/// does not wait for the browser: it waits a short moment for an opener that fails at once, then
/// leaves it running in a process group of its own.
public struct URLOpener: Sendable {
    /// Why the address was not opened. No case carries the address's query (it may hold a session).
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// The address is not an https URL (or holds control characters): it is not handed on.
        case notHTTPS
        /// The opener program is not installed (not on PATH).
        case openerMissing(program: String)
        /// The opener could not be started (errno).
        case spawnFailed(program: String, errno: Int32)
        /// The opener ended at once with a failure status.
        case openerFailed(program: String, status: Int32)

        public var description: String {
            switch self {
            case .notHTTPS: return "the address to continue at is not an https URL, so it is not opened"
            case .openerMissing(let program):
                return "\(program) is not installed (Debian: apt install xdg-utils); open the address yourself"
            case .spawnFailed(let program, let errno):
                return "\(program) could not be started (\(String(cString: strerror(errno))))"
            case .openerFailed(let program, let status):
                return "\(program) failed (exit status \(status)); open the address yourself"
            }
        }
    }

    /// The program, looked up on PATH.
    public var program: String
    /// How long to wait for an opener that fails at once.
    public var grace: Double

    public init(program: String = "xdg-open", grace: Double = 2) {
        self.program = program
        self.grace = grace
    }

    /// Whether `url` may be handed to the opener: https, and no whitespace or control characters
    /// (an opener must not read it as more than one address or as an option).
    public static func isOpenable(_ url: String) -> Bool {
        guard url.lowercased().hasPrefix("https://"), url.count > "https://".count else { return false }
        return !url.unicodeScalars.contains { $0.value <= 0x20 || $0.value == 0x7F }
    }

    /// Starts the opener with `url`; returns once it is running (or has ended well), or throws why not.
    public func open(_ url: String, quiet: Bool) throws(Failure) {
        guard Self.isOpenable(url) else { throw .notHTTPS }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        if quiet { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }
        // Nothing else of eid's: the opener, and the browser it starts, outlive eid and must not
        // hold its connections (to pcscd, to the eID server) or other descriptors open.
        Spawn.closeOthers(&actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A process group of its own: Ctrl-C at eid's terminal does not reach the browser it starts.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)

        let (status, pid) = Spawn.start(program, [url], actions: &actions, attributes: &attributes)
        if status == ENOENT { throw .openerMissing(program: program) }
        guard status == 0 else { throw .spawnFailed(program: program, errno: status) }

        // Wait a moment for a quick failure (xdg-open ends with 3 when it finds no tool); a
        // browser that keeps the opener running is left alone.
        var waited = 0.0
        while waited < grace {
            var exitStatus: Int32 = 0
            let ended = waitpid(pid, &exitStatus, WNOHANG)
            if ended == pid {
                let code = (exitStatus >> 8) & 0xFF
                let signalled = exitStatus & 0x7F != 0
                if signalled || code != 0 {
                    throw .openerFailed(program: program, status: signalled ? 128 + (exitStatus & 0x7F) : code)
                }
                return
            }
            if ended < 0 && errno != EINTR { return }
            usleep(20_000)
            waited += 0.02
        }
    }
}
