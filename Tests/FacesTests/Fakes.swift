import CardSimulator
import Faces
import Foundation
import SDK
import SmartCard

#if canImport(Glibc)
import Glibc
#endif

/// Records every line written, by stream, in order; `onLine` sees each as it is written.
final class RecordingSink: ConsoleSink, @unchecked Sendable {
    // Unchecked: `lines` and `onLine` are guarded by `lock`.
    private let lock = Lock()
    private var lines: [(StandardStream, String)] = []
    private var hook: (@Sendable (String) -> Void)?

    func write(_ text: String, to stream: StandardStream) {
        let new = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        let hook = lock.withLock {
            lines += new.map { (stream, $0) }
            return self.hook
        }
        for line in new { hook?(line) }
    }

    func onLine(_ hook: @escaping @Sendable (String) -> Void) { lock.withLock { self.hook = hook } }

    var output: [String] { lock.withLock { lines.filter { $0.0 == .output }.map(\.1) } }
    var error: [String] { lock.withLock { lines.filter { $0.0 == .error }.map(\.1) } }
    /// The `msg` of each JSON line on standard output.
    var messages: [String] {
        output.compactMap { line in
            guard let r = line.range(of: #""msg":""#) else { return nil }
            return String(line[r.upperBound...].prefix { $0 != "\"" })
        }
    }
}

/// Standard input from a script: the lines given, then (unless `open`) the end of input. An open
/// input blocks until `close()`.
final class ScriptedInput: LineInput, @unchecked Sendable {
    // Unchecked: `bytes` and `closed` are guarded by `condition`.
    private let condition = Condition()
    private var bytes: [UInt8]
    private var closed: Bool
    let isTerminal: Bool

    init(_ lines: [String], open: Bool = false, isTerminal: Bool = false) {
        bytes = Array(lines.map { $0 + "\n" }.joined().utf8)
        closed = !open
        self.isTerminal = isTerminal
    }

    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    func read(into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        condition.lock()
        defer { condition.unlock() }
        while bytes.isEmpty && !closed { condition.wait(seconds: 0.1) }
        let n = min(buffer.count, bytes.count)
        for i in 0..<n { buffer[i] = bytes[i] }
        bytes.removeFirst(n)
        return n
    }
}

/// A terminal that records what is done to it ("echo off", "restore", "write …", "stop") and
/// answers prompts with the lines typed; with no line left it waits (a person thinking).
final class FakeTerminal: TerminalDevice, @unchecked Sendable {
    // Unchecked: every property is guarded by `lock`.
    private let lock = Lock()
    private var typed: [UInt8]
    private var log: [String] = []
    private var echoOffNow = false
    private var hook: (@Sendable (String) -> Void)?

    /// Whether the input has ended once the lines are read (Ctrl-D, a hang-up).
    private let ends: Bool

    init(typing lines: [String], thenEnd ends: Bool = false) {
        typed = Array(lines.map { $0 + "\n" }.joined().utf8)
        self.ends = ends
    }

    /// `hook` sees every event as it happens (to raise a signal at a prompt, say).
    func onEvent(_ hook: @escaping @Sendable (String) -> Void) { lock.withLock { self.hook = hook } }

    var events: [String] { lock.withLock { log } }
    var isEchoOff: Bool { lock.withLock { echoOffNow } }

    private func record(_ event: String) {
        let hook = lock.withLock {
            log.append(event)
            return self.hook
        }
        hook?(event)
    }

    func echoOff() -> Bool {
        lock.withLock { echoOffNow = true }
        record("echo off")
        return true
    }

    func restoreEcho() {
        lock.withLock { echoOffNow = false }
        record("restore")
    }

    func write(_ text: String) { record("write \(text)") }

    func waitForInput(timeout: Double) -> Bool {
        if ends || lock.withLock({ !typed.isEmpty }) { return true }
        usleep(UInt32(timeout * 1_000_000))
        return false
    }

    func readByte() -> TerminalRead {
        lock.withLock { typed.isEmpty ? .end : .byte(typed.removeFirst()) }
    }

    func stopProcess() { record("stop") }
}

/// A clock whose scheduled work runs only when the test says so.
final class ManualClock: FaceClock, @unchecked Sendable {
    // Unchecked: `work` is guarded by `lock`.
    private let lock = Lock()
    private var work: [(Double, @Sendable () -> Void)] = []

    func schedule(after seconds: Double, _ work: @escaping @Sendable () -> Void) {
        lock.withLock { self.work.append((seconds, work)) }
    }

    var delays: [Double] { lock.withLock { work.map(\.0) } }

    func runAll() { for (_, run) in lock.withLock({ work }) { run() } }
}

/// Signals raised by the test. Like ProcessSignals, whose watch ends when it goes away, it holds
/// the watches weakly: their closures hold the face's terminal and queue, and a test's
/// `onEvent` hook holds these signals, so strong references made a cycle (LeakSanitizer).
final class ManualSignals: SignalSource, @unchecked Sendable {
    // Unchecked: every property is guarded by `lock`.
    private let lock = Lock()
    private var weakWatches: [WeakWatch] = []
    private var made = 0

    private struct WeakWatch { weak var watch: ManualWatch? }
    private var watches: [ManualWatch] { weakWatches.compactMap(\.watch) }

    final class ManualWatch: SignalWatch, @unchecked Sendable {
        // Unchecked: `stopped` is guarded by `lock`.
        let lock = Lock()
        var stopped = false
        let onStop: @Sendable (Int32) -> Void
        let onSuspend: (@Sendable () -> Void)?
        init(onStop: @escaping @Sendable (Int32) -> Void, onSuspend: (@Sendable () -> Void)?) {
            self.onStop = onStop
            self.onSuspend = onSuspend
        }
        var isStopped: Bool { lock.withLock { stopped } }
    }

    func watch(
        _ signals: [Int32], onStop: @escaping @Sendable (Int32) -> Void, onSuspend: (@Sendable () -> Void)?
    ) -> any SignalWatch {
        let watch = ManualWatch(onStop: onStop, onSuspend: onSuspend)
        lock.withLock {
            weakWatches.append(WeakWatch(watch: watch))
            made += 1
        }
        return watch
    }

    /// How many watches were asked for.
    var watching: Int { lock.withLock { made } }

    func raiseStop(_ signal: Int32 = SIGINT) {
        for watch in lock.withLock({ watches }) {
            let first = watch.lock.withLock {
                defer { watch.stopped = true }
                return !watch.stopped
            }
            if first { watch.onStop(signal) }
        }
    }

    func raiseSuspend() { for watch in lock.withLock({ watches }) { watch.onSuspend?() } }
}

/// Exit statuses a context's `terminate` was called with.
final class Terminations: @unchecked Sendable {
    // Unchecked: `statuses` is guarded by `lock`.
    private let lock = Lock()
    private var statuses: [Int32] = []
    func record(_ status: Int32) { lock.withLock { statuses.append(status) } }
    var all: [Int32] { lock.withLock { statuses } }
}

/// A context of fakes around the in-process software card (reader "Simulator": PIN 123456,
/// CAN 500540, PUK 9876543210).
struct Harness {
    let sink = RecordingSink()
    let clock = ManualClock()
    let signals = ManualSignals()
    let terminations = Terminations()
    let input: ScriptedInput
    let terminal: FakeTerminal?
    let card: SimulatedEIDCard

    init(input: ScriptedInput = ScriptedInput([]), terminal: FakeTerminal? = nil, card: SimulatedEIDCard = .init()) {
        self.input = input
        self.terminal = terminal
        self.card = card
    }

    var context: FaceContext {
        let card = self.card
        let terminal = terminal
        let terminations = terminations
        return FaceContext(
            console: Console(sink: sink), input: input, terminal: { terminal }, clock: clock, signals: signals,
            readers: ReaderProviders(open: { SimulatorReaderProvider(card: card) }, lookup: { nil }),
            terminate: { terminations.record($0) })
    }
}
