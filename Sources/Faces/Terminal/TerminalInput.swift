import SmartCard

#if canImport(Glibc)
import Glibc
#endif

/// Asking secrets on a terminal with echo off.
///
/// Ordering, so that no typed character is ever shown or lost: echo goes off (TCSAFLUSH, which
/// also drops type-ahead typed while echo was still on) before the prompt is written and before
/// any byte is read; the old settings come back before `readSecret` returns, and from the signal
/// thread by `interrupt()` before eid exits.
///
/// The typed line goes into one fixed buffer of `maximumLength` bytes, allocated once and zeroed
/// after every prompt; it never grows, so no copy of a secret is left behind in freed memory. A
/// longer line is refused as a whole (`.tooLong`).
// Unchecked: every mutable property and the line buffer are guarded by `lock`.
public final class TerminalInput: @unchecked Sendable {
    /// The longest answer taken: the longest secret is the 10-digit PUK.
    public static let maximumLength = 32

    private let device: any TerminalDevice
    private let lock = Lock()
    /// Whether echo is off for a prompt now.
    private var echoIsOff = false
    /// The prompt shown, while it is shown.
    private var prompt: String?
    private var interrupted = false
    /// The line typed so far (`count` bytes), and whether it was longer than the buffer.
    private var count = 0
    private var overflow = false
    /// Locked into RAM where the system allows it; zeroed after each line and when it goes.
    private let lineBuffer = LockedBuffer(count: TerminalInput.maximumLength)
    private var line: UnsafeMutableBufferPointer<UInt8> { lineBuffer.bytes }

    public init(device: any TerminalDevice) {
        self.device = device
    }

    deinit {
        restore()
    }

    public enum Answer {
        case secret(Secret)
        case endOfInput
        case timedOut
        /// A stop signal arrived (`interrupt()`).
        case interrupted
        /// The line was longer than `maximumLength`; it was dropped.
        case tooLong
    }

    public var isInterrupted: Bool { lock.withLock { interrupted } }

    /// Writes `prompt`, reads one line with echo off (or on, for an answer that is no secret,
    /// such as yes or no), at most `timeout` seconds.
    public func readSecret(prompt: String, timeout: Double, echo: Bool = false) -> Answer {
        guard echoOff(prompt: prompt, keepEcho: echo) else { return .interrupted }
        write(prompt)
        defer {
            restore()
            // With echo on, the terminal has shown the typed line break itself.
            if !echo { write("\n") }
        }
        defer { lock.withLock { clearLine() } }
        let deadline = Deadline(secondsFromNow: timeout)
        while true {
            if isInterrupted { return .interrupted }
            let remaining = deadline.remaining
            guard remaining > 0 else { return .timedOut }
            // Short slices, so that an interrupt is seen at once.
            guard device.waitForInput(timeout: min(remaining, 0.1)) else { continue }
            let read = device.readByte()
            if case .again = read { continue }
            // The line is shared with `suspend()`, which empties it when eid continues.
            lock.lock()
            defer { lock.unlock() }
            guard case .byte(let byte) = read else {
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

    /// The first `count` bytes of the line as a secret, copied from the line and zeroed there
    /// (no intermediate array).
    private func take(_ count: Int) -> Answer {
        .secret(Secret(consuming: UnsafeMutableBufferPointer(rebasing: line[0..<count])))
    }

    /// Turns echo off for `prompt`; false when eid has been interrupted already.
    private func echoOff(prompt: String, keepEcho: Bool = false) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !interrupted else { return false }
        echoIsOff = keepEcho ? false : device.echoOff()
        self.prompt = prompt
        return true
    }

    /// Writes text to the terminal.
    public func write(_ text: String) { device.write(text) }

    /// Puts back the settings that were in force before the prompt.
    public func restore() {
        lock.lock()
        defer { lock.unlock() }
        restoreLocked()
        prompt = nil
    }

    private func restoreLocked() {
        if echoIsOff {
            device.restoreEcho()
            echoIsOff = false
        }
    }

    /// From the signal thread: restores the terminal at once and makes the prompt (this one or
    /// the next) answer `.interrupted`.
    public func interrupt() {
        lock.lock()
        defer { lock.unlock() }
        interrupted = true
        restoreLocked()
    }

    /// SIGTSTP (Ctrl-Z), from the signal thread: puts the terminal back as it was, stops eid
    /// (SIGSTOP, which cannot be caught, so the shell sees a stopped job), and when eid is
    /// continued (SIGCONT, `fg`) turns echo off again, drops what was typed before the stop
    /// and shows the prompt again.
    public func suspend() {
        lock.lock()
        let shown = prompt
        let echoWasOff = echoIsOff
        restoreLocked()
        lock.unlock()
        if shown != nil { write("\n") }
        device.stopProcess()
        lock.lock()
        guard echoWasOff, let shown, !interrupted, prompt == shown else {
            lock.unlock()
            return
        }
        echoIsOff = device.echoOff()
        clearLine()
        lock.unlock()
        write(shown)
    }
}
