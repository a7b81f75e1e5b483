import Dispatch
import SmartCard

#if canImport(Glibc)
import Glibc
#endif

/// Turns stop signals (SIGINT and SIGTERM; SIGQUIT and SIGHUP too where eid may be holding a
/// secret) into a flag and a callback, so long waits end cleanly.
// Unchecked: `stopped` is guarded by `lock`; `sources` is set in `init` only.
final class StopSignal: @unchecked Sendable {
    private let lock = Lock()
    private var sources: [DispatchSourceSignal] = []
    private let numbers: [Int32]
    private var stopped: Int32?

    /// The signal that arrived, if any.
    var signal: Int32? {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    var isStopped: Bool { signal != nil }

    init(signals: [Int32] = [SIGINT, SIGTERM], onStop: @escaping @Sendable (Int32) -> Void) {
        numbers = signals
        for sig in signals {
            Glibc.signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { [weak self] in
                guard let self else { return }
                self.lock.lock()
                let first = self.stopped == nil
                if first { self.stopped = sig }
                self.lock.unlock()
                if first { onStop(sig) }
            }
            source.resume()
            sources.append(source)
        }
    }

    deinit {
        for source in sources { source.cancel() }
        for sig in numbers { Glibc.signal(sig, SIG_DFL) }
    }
}
