import Dispatch
import SmartCard

#if canImport(Glibc)
import Glibc
#endif

/// Where stop signals (SIGINT, SIGTERM, SIGQUIT, SIGHUP) and the terminal's stop (SIGTSTP) come
/// from: the process, or a test that raises them by hand.
public protocol SignalSource: Sendable {
    /// Watches until the returned watch is released: `onStop` runs once, for the first of
    /// `signals`; `onSuspend` (when given) runs for each SIGTSTP instead of its default action.
    func watch(
        _ signals: [Int32], onStop: @escaping @Sendable (Int32) -> Void, onSuspend: (@Sendable () -> Void)?
    ) -> any SignalWatch
}

/// A running watch; released, it stops watching.
public protocol SignalWatch: AnyObject, Sendable {
    /// Whether a stop signal arrived.
    var isStopped: Bool { get }
}

/// The process's signals, through Dispatch signal sources.
public struct ProcessSignals: SignalSource {
    public init() {}

    public func watch(
        _ signals: [Int32], onStop: @escaping @Sendable (Int32) -> Void, onSuspend: (@Sendable () -> Void)?
    ) -> any SignalWatch {
        ProcessSignalWatch(stop: StopSignal(signals: signals, onStop: onStop), onSuspend: onSuspend)
    }
}

// Unchecked: only immutable properties; a Dispatch source is made to be cancelled from any thread.
final class ProcessSignalWatch: SignalWatch, @unchecked Sendable {
    let stop: StopSignal
    let suspend: DispatchSourceSignal?

    init(stop: StopSignal, onSuspend: (@Sendable () -> Void)?) {
        self.stop = stop
        if let onSuspend {
            signal(SIGTSTP, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: SIGTSTP, queue: .global())
            source.setEventHandler(handler: onSuspend)
            source.resume()
            suspend = source
        } else {
            suspend = nil
        }
    }

    deinit {
        if let suspend {
            suspend.cancel()
            signal(SIGTSTP, SIG_DFL)
        }
    }

    var isStopped: Bool { stop.isStopped }
}
