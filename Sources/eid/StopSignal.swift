import Dispatch
import CardAccess
#if canImport(Glibc)
import Glibc
#endif

/// Turns SIGINT and SIGTERM into a flag and a callback, so long waits end cleanly.
final class StopSignal: @unchecked Sendable {
    private let lock = Lock()
    private var sources: [DispatchSourceSignal] = []
    private var stopped: Int32?

    /// The signal that arrived, if any.
    var signal: Int32? {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    var isStopped: Bool { signal != nil }

    init(onStop: @escaping @Sendable (Int32) -> Void) {
        for sig in [SIGINT, SIGTERM] {
            Glibc.signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { [weak self] in
                self?.lock.lock()
                self?.stopped = sig
                self?.lock.unlock()
                onStop(sig)
            }
            source.resume()
            sources.append(source)
        }
    }

    deinit {
        sources.forEach { $0.cancel() }
        Glibc.signal(SIGINT, SIG_DFL)
        Glibc.signal(SIGTERM, SIG_DFL)
    }
}
