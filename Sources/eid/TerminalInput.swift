import SmartCard

#if canImport(Glibc)
import Glibc
#endif

/// The controlling terminal (/dev/tty), for asking secrets with echo off.
///
/// Ordering, so that no typed character is ever shown or lost: echo goes off (TCSAFLUSH, which
/// also drops type-ahead typed while echo was still on) before the prompt is written and before
/// any byte is read; the old settings come back (TCSANOW: at once, without waiting for output to
/// drain, since a signal may be the reason) before `readSecret` returns, and from the signal
/// thread by `interrupt()` before eid exits.
///
/// The typed line goes into one fixed buffer of `maximumLength` bytes, allocated once and zeroed
/// after every prompt; it never grows, so no copy of a secret is left behind in freed memory. A
/// longer line is refused as a whole (`.tooLong`).
final class TerminalInput: @unchecked Sendable {
    /// The longest answer taken: the longest secret is the 10-digit PUK.
    static let maximumLength = 32

    private let fd: Int32
    private let lock = Lock()
    /// The settings before the prompt, while a prompt is shown.
    private var saved: termios?
    private var prompt: String?
    private var interrupted = false
    /// The line typed so far (`count` bytes), and whether it was longer than the buffer.
    private var count = 0
    private var overflow = false
    private let line = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: TerminalInput.maximumLength)

    /// Opens /dev/tty; nil when eid has no controlling terminal.
    init?() {
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        self.fd = fd
        line.initialize(repeating: 0)
    }

    deinit {
        restore()
        close(fd)
        explicit_bzero(line.baseAddress!, line.count)
        line.deallocate()
    }

    enum Answer {
        case secret(Secret)
        case endOfInput
        case timedOut
        /// A stop signal arrived (`interrupt()`).
        case interrupted
        /// The line was longer than `maximumLength`; it was dropped.
        case tooLong
    }

    var isInterrupted: Bool { lock.withLock { interrupted } }

    /// Writes `prompt`, reads one line with echo off, at most `timeout` seconds.
    func readSecret(prompt: String, timeout: Double) -> Answer {
        guard echoOff(prompt: prompt) else { return .interrupted }
        write(prompt)
        defer {
            restore()
            write("\n")
        }
        defer { lock.withLock { clearLine() } }
        let deadline = Deadline(secondsFromNow: timeout)
        while true {
            if isInterrupted { return .interrupted }
            let remaining = deadline.remaining
            guard remaining > 0 else { return .timedOut }
            // Short slices, so that an interrupt is seen at once.
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, Int32(min(remaining, 0.1) * 1000))
            if ready <= 0 { continue }
            var byte: UInt8 = 0
            let n = read(fd, &byte, 1)
            defer { byte = 0 }
            if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            // The line is shared with `suspend()`, which empties it when eid continues.
            lock.lock()
            defer { lock.unlock() }
            if n <= 0 {
                if count == 0 && !overflow { return .endOfInput }
                return overflow ? .tooLong : take(count)
            }
            if byte == 0x0A || byte == 0x0D { return overflow ? .tooLong : take(count) }
            if count < line.count {
                line[count] = byte
                count += 1
            } else {
                overflow = true
            }
        }
    }

    /// Zeroes the line; the caller holds the lock.
    private func clearLine() {
        explicit_bzero(line.baseAddress!, line.count)
        count = 0
        overflow = false
    }

    /// The first `count` bytes of the line as a secret (the intermediate array is zeroed by
    /// `Secret(consuming:)`; it is made at its final size, so it never regrows).
    private func take(_ count: Int) -> Answer {
        var bytes = Array(UnsafeBufferPointer(rebasing: line[0..<count]))
        return .secret(Secret(consuming: &bytes))
    }

    /// Turns echo off for `prompt`; false when eid has been interrupted already.
    private func echoOff(prompt: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !interrupted else { return false }
        silenceLocked()
        self.prompt = prompt
        return true
    }

    /// Saves the terminal's settings and turns echo off (canonical input stays on); TCSAFLUSH
    /// drops anything typed before, so no byte typed with echo on is read as the secret.
    /// Called with `lock` held.
    private func silenceLocked() {
        var settings = termios()
        guard tcgetattr(fd, &settings) == 0 else { return }
        saved = settings
        var quiet = settings
        quiet.c_lflag &= ~tcflag_t(ECHO | ECHONL)
        quiet.c_lflag |= tcflag_t(ICANON)
        tcsetattr(fd, TCSAFLUSH, &quiet)
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
        restoreLocked()
        prompt = nil
    }

    private func restoreLocked() {
        if var s = saved {
            tcsetattr(fd, TCSANOW, &s)
            saved = nil
        }
    }

    /// From the signal thread: restores the terminal at once and makes the prompt (this one or
    /// the next) answer `.interrupted`.
    func interrupt() {
        lock.lock()
        defer { lock.unlock() }
        interrupted = true
        restoreLocked()
    }

    /// SIGTSTP (Ctrl-Z), from the signal thread: puts the terminal back as it was, stops eid
    /// (SIGSTOP, which cannot be caught, so the shell sees a stopped job), and when eid is
    /// continued (SIGCONT, `fg`) turns echo off again, drops what was typed before the stop
    /// and shows the prompt again.
    func suspend() {
        lock.lock()
        let shown = prompt
        let echoWasOff = saved
        restoreLocked()
        lock.unlock()
        if shown != nil { write("\n") }
        // To this thread (raise), not the process (kill): a process-directed stop may reach
        // this thread only after it went on and turned echo off again.
        raise(SIGSTOP)
        lock.lock()
        guard echoWasOff != nil, let shown, !interrupted, prompt == shown else {
            lock.unlock()
            return
        }
        silenceLocked()
        clearLine()
        lock.unlock()
        write(shown)
    }
}
