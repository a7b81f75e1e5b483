import SmartCard

#if canImport(Glibc)
import Glibc
#endif

/// A running pinentry program and the Assuan line stream to it: one end of a socket pair is its
/// standard input and output (a socket, so that writing to a program that has gone raises no
/// SIGPIPE: `send` with MSG_NOSIGNAL), its standard error is eid's; no other descriptor of eid's
/// is passed on (`Spawn.closeOthers`). Every read waits until a
/// deadline, in short slices so that a stop signal (`interrupt()`) is seen at once. Lines are read
/// into one locked buffer that is zeroed after each line: a D line may hold the PIN.
final class PinentryConnection: @unchecked Sendable {
    // Unchecked: `interrupted` is guarded by `lock`; the rest is used from one thread.
    let program: String
    private let socket: Int32
    private let pid: pid_t
    private var reaped = false
    private let lock = Lock()
    private var interrupted = false
    /// Read but not yet returned bytes (`pendingCount` of them), then the line returned.
    private let readBuffer = LockedBuffer(count: 4096)
    private var pendingCount = 0
    private let lineBuffer = LockedBuffer(count: AssuanData.lineLength + 2)

    /// Starts `program` with `arguments`, the environment of eid.
    init(program: String, arguments: [String]) throws(PinentryError) {
        self.program = program
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw .startFailed(program: program, errno: errno)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pair[1], 0)
        posix_spawn_file_actions_adddup2(&actions, pair[1], 1)
        Spawn.closeOthers(&actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Signals eid ignores or blocks are not the program's business.
        var defaults = sigset_t()
        sigfillset(&defaults)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let (status, child) = Spawn.start(program, arguments, actions: &actions, attributes: &attributes)
        close(pair[1])
        guard status == 0 else {
            close(pair[0])
            throw status == ENOENT ? .programMissing(program: program) : .startFailed(program: program, errno: status)
        }
        socket = pair[0]
        pid = child
    }

    deinit {
        finish(grace: 0)
        close(socket)
    }

    /// From the signal thread: the read under way (or the next) ends with `.interrupted`.
    func interrupt() { lock.withLock { interrupted = true } }

    private var isInterrupted: Bool { lock.withLock { interrupted } }

    /// Sends one line (a line feed is added).
    func send(_ line: [UInt8]) throws(PinentryError) {
        var bytes = line + [0x0A]
        defer { Secret.zero(&bytes) }
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { raw in
                Glibc.send(socket, raw.baseAddress! + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
            }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw errno == EPIPE ? .programEnded(program: program) : .writeFailed(errno: errno)
            }
            sent += n
        }
    }

    /// Reads the next line (without its line feed) and hands it to `body`; the line is zeroed
    /// afterwards. Waits at most `timeout` seconds.
    func readLine<R>(timeout: Double, _ body: (UnsafeBufferPointer<UInt8>) throws(PinentryError) -> R)
        throws(PinentryError) -> R
    {
        let deadline = Deadline(secondsFromNow: timeout)
        while true {
            let pending = UnsafeBufferPointer(rebasing: readBuffer.bytes[0..<pendingCount])
            if let end = pending.firstIndex(of: 0x0A) {
                guard end <= AssuanData.lineLength else { throw .malformedResponse("line too long") }
                for i in 0..<end { lineBuffer.bytes[i] = readBuffer.bytes[i] }
                // Move the rest to the front, zeroing what it leaves behind.
                let rest = pendingCount - end - 1
                for i in 0..<rest { readBuffer.bytes[i] = readBuffer.bytes[end + 1 + i] }
                for i in rest..<pendingCount { readBuffer.bytes[i] = 0 }
                pendingCount = rest
                defer { lineBuffer.wipe() }
                return try body(UnsafeBufferPointer(rebasing: lineBuffer.bytes[0..<end]))
            }
            guard pendingCount <= AssuanData.lineLength else { throw .malformedResponse("line too long") }
            if isInterrupted { throw .interrupted }
            let remaining = deadline.remaining
            guard remaining > 0 else { throw .noAnswer(program: program, seconds: timeout) }
            var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(remaining, 0.1) * 1000) + 1)
            if ready <= 0 { continue }
            let space = readBuffer.count - pendingCount
            let n = recv(socket, readBuffer.bytes.baseAddress! + pendingCount, space, 0)
            if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard n > 0 else { throw .programEnded(program: program) }
            pendingCount += n
        }
    }

    /// Ends the program: BYE was sent (or not); after `grace` seconds it is terminated, then
    /// killed, and reaped.
    func finish(grace: Double) {
        guard !reaped else { return }
        reaped = true
        readBuffer.wipe()
        pendingCount = 0
        if waitForExit(seconds: grace) { return }
        kill(pid, SIGTERM)
        if waitForExit(seconds: 1) { return }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }

    private func waitForExit(seconds: Double) -> Bool {
        let deadline = Deadline(secondsFromNow: seconds)
        var status: Int32 = 0
        repeat {
            let ended = waitpid(pid, &status, WNOHANG)
            if ended == pid || (ended < 0 && errno == ECHILD) { return true }
            usleep(10_000)
        } while deadline.remaining > 0
        return false
    }
}
