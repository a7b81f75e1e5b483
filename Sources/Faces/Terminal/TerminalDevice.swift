import SmartCard

#if canImport(Glibc)
import Glibc
#endif

/// The terminal operations `TerminalInput` needs: echo off and back, write, read one byte. The
/// controlling terminal in eid; a recorder in a test, which sees the order of the calls.
public protocol TerminalDevice: Sendable {
    /// Saves the terminal's settings and turns echo off (canonical input stays on), dropping
    /// anything typed before (TCSAFLUSH). False when the settings cannot be read.
    func echoOff() -> Bool
    /// Puts back the settings `echoOff` saved, at once (TCSANOW, without waiting for output to
    /// drain, since a signal may be the reason).
    func restoreEcho()
    func write(_ text: String)
    /// Waits at most `timeout` seconds for a byte to read.
    func waitForInput(timeout: Double) -> Bool
    func readByte() -> TerminalRead
    /// Stops the process (SIGSTOP to this thread) until it is continued (SIGCONT, `fg`).
    func stopProcess()
}

/// The result of reading one byte from a terminal.
public enum TerminalRead: Equatable, Sendable {
    case byte(UInt8)
    /// Nothing this time (EINTR, EAGAIN): read again.
    case again
    /// End of input (Ctrl-D on an empty line, a hang-up) or an error.
    case end
}

/// The controlling terminal, /dev/tty.
// Unchecked: `saved` is guarded by `lock`; the descriptor is immutable.
public final class ControllingTerminal: TerminalDevice, @unchecked Sendable {
    private let fd: Int32
    private let lock = Lock()
    private var saved: termios?

    /// Opens /dev/tty; nil when eid has no controlling terminal.
    public init?() {
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        self.fd = fd
    }

    deinit {
        restoreEcho()
        close(fd)
    }

    public func echoOff() -> Bool {
        lock.withLock {
            var settings = termios()
            guard tcgetattr(fd, &settings) == 0 else { return false }
            saved = settings
            var quiet = settings
            quiet.c_lflag &= ~tcflag_t(ECHO | ECHONL)
            quiet.c_lflag |= tcflag_t(ICANON)
            tcsetattr(fd, TCSAFLUSH, &quiet)
            return true
        }
    }

    public func restoreEcho() {
        lock.withLock {
            if var s = saved {
                tcsetattr(fd, TCSANOW, &s)
                saved = nil
            }
        }
    }

    public func write(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBufferPointer { Glibc.write(fd, $0.baseAddress, $0.count) }
    }

    public func waitForInput(timeout: Double) -> Bool {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&pfd, 1, Int32(timeout * 1000)) > 0
    }

    public func readByte() -> TerminalRead {
        var byte: UInt8 = 0
        defer { byte = 0 }
        let n = read(fd, &byte, 1)
        if n < 0 && (errno == EINTR || errno == EAGAIN) { return .again }
        return n == 1 ? .byte(byte) : .end
    }

    public func stopProcess() {
        // To this thread (raise), not the process (kill): a process-directed stop may reach
        // this thread only after it went on and turned echo off again.
        raise(SIGSTOP)
    }
}
