import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// `eid serve`'s own SIGINT and SIGTERM: every arrival goes to `handle` (Faces' stop signals
/// report only the first, which suits a workflow, not a service that outlives many).
final class ServiceSignals {
    private let sources: [any DispatchSourceSignal]

    init(handle: @escaping @Sendable (Int32) -> Void) {
        sources = [SIGINT, SIGTERM].map { signal in
            Glibc.signal(signal, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signal, queue: .global())
            source.setEventHandler { handle(signal) }
            source.resume()
            return source
        }
    }

    deinit { for source in sources { source.cancel() } }
}
