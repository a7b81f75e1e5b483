import CardAccess
#if canImport(Glibc)
import Glibc
#endif

/// The controlling terminal (/dev/tty), for asking secrets with echo off. The terminal's
/// settings are restored after every prompt, and by `restore()` when a signal ends eid.
final class TerminalInput: @unchecked Sendable {
    private let fd: Int32
    private let lock = Lock()
    private var saved: termios?

    /// Opens /dev/tty; nil when eid has no controlling terminal.
    init?() {
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        self.fd = fd
    }

    deinit {
        restore()
        close(fd)
    }

    enum Answer {
        case secret(Secret)
        case endOfInput
        case timedOut
    }

    /// Writes `prompt`, reads one line with echo off, at most `timeout` seconds.
    func readSecret(prompt: String, timeout: Double) -> Answer {
        // Echo goes off (and earlier type-ahead is dropped) before the prompt appears, so that
        // nothing typed after the prompt is lost or shown.
        var settings = termios()
        let haveSettings = tcgetattr(fd, &settings) == 0
        if haveSettings {
            lock.lock()
            saved = settings
            lock.unlock()
            var quiet = settings
            quiet.c_lflag &= ~tcflag_t(ECHO | ECHONL)
            quiet.c_lflag |= tcflag_t(ICANON)
            tcsetattr(fd, TCSAFLUSH, &quiet)
        }
        write(prompt)
        defer {
            restore()
            write("\n")
        }
        var line: [UInt8] = []
        defer { Secret.zero(&line) }
        let deadline = Deadline(secondsFromNow: timeout)
        while true {
            let remaining = deadline.remaining
            guard remaining > 0 else { return .timedOut }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, Int32(min(remaining, 1) * 1000))
            if ready < 0 && errno == EINTR { continue }
            if ready <= 0 { continue }
            var byte: UInt8 = 0
            let n = read(fd, &byte, 1)
            if n <= 0 { return line.isEmpty ? .endOfInput : .secret(Secret(consuming: &line)) }
            if byte == 0x0A || byte == 0x0D { return .secret(Secret(consuming: &line)) }
            line.append(byte)
            byte = 0
        }
    }

    /// Writes text to the terminal.
    func write(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBufferPointer { Glibc.write(fd, $0.baseAddress, $0.count) }
    }

    /// Puts back the settings that were in force before the prompt.
    func restore() {
        lock.lock()
        defer { lock.unlock() }
        if var s = saved {
            tcsetattr(fd, TCSANOW, &s)
            saved = nil
        }
    }
}
