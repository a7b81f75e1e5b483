import Dispatch
import FuzzTargets
import Glibc
import SmartCard

/// One fuzz input through its target, with a bound on how long it may take: libFuzzer reports an
/// input that runs longer than its `-timeout` as a hang, and the corpus replay does the same with
/// one second per input. Timing is the behaviour here (a target must not hang on input from
/// outside), so the bound is measured as the CPU time of the thread that runs the input: a loaded
/// machine, where other tests take the cores, does not make an input look slow. An input that
/// blocks without using the CPU is caught by a far longer bound on the wall clock.
enum BoundedReplay {
    /// The bound of libFuzzer's hang report for the corpus: one second of CPU time per input.
    static let cpuSeconds = 1.0
    /// An input that waits without computing (a lock never released) is a hang too.
    static let wallSeconds = 60.0

    enum Outcome: Equatable, CustomStringConvertible {
        /// Done, after this much CPU time.
        case ran(cpuSeconds: Double)
        /// Still running after more CPU time than the bound (it is left running on its thread).
        case tooSlow(cpuSeconds: Double)
        /// Still running, without using the CPU, after `wallSeconds`.
        case blocked
        /// No thread could be started for it.
        case noThread

        var description: String {
            switch self {
            case .ran(let seconds): return "ran in \(seconds) s of CPU time"
            case .tooSlow(let seconds): return "still running after \(seconds) s of CPU time (bound \(cpuSeconds) s)"
            case .blocked: return "still running after \(wallSeconds) s without using the CPU"
            case .noThread: return "no thread could be started"
            }
        }
    }

    /// Runs `target` over `input` on a thread of its own and waits until it ends or a bound passes.
    static func run(_ target: FuzzTarget, _ input: [UInt8], cpuBound: Double = cpuSeconds) -> Outcome {
        run(cpuBound: cpuBound) { target.run(input) }
    }

    /// `body` on a thread of its own, bounded as `run(_:_:)` is.
    static func run(cpuBound: Double = cpuSeconds, _ body: @escaping @Sendable () -> Void) -> Outcome {
        let started = DispatchSemaphore(value: 0)
        let ended = DispatchSemaphore(value: 0)
        let clock = Locked<clockid_t>(0)
        let spent = Locked<Double>(0)
        let thread = DetachedThread.start {
            var own = clockid_t()
            pthread_getcpuclockid(pthread_self(), &own)
            clock.withLock { $0 = own }
            started.signal()
            body()
            spent.withLock { $0 = cpuTime(own) }
            ended.signal()
        }
        guard thread else { return .noThread }
        started.wait()
        let id = clock.withLock { $0 }
        let wall = Deadline(secondsFromNow: wallSeconds)
        while true {
            if ended.wait(timeout: .now() + .milliseconds(10)) == .success {
                return .ran(cpuSeconds: spent.withLock { $0 })
            }
            // The thread is still running (it signals `ended` last), so its clock is valid.
            let used = cpuTime(id)
            if used > cpuBound { return .tooSlow(cpuSeconds: used) }
            if wall.hasPassed { return .blocked }
        }
    }

    private static func cpuTime(_ clock: clockid_t) -> Double {
        var now = timespec()
        guard clock_gettime(clock, &now) == 0 else { return 0 }
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
