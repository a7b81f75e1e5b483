import Synchronization

/// A flag another thread sets to stop the requests of an `HTTPSession`: a running transfer ends with
/// `HTTPError.cancelled` within about a second (libcurl's progress callback), a new one does not start.
public final class HTTPCancellation: Sendable {
    private let flag = Atomic<Bool>(false)

    public init() {}

    public func cancel() { flag.store(true, ordering: .sequentiallyConsistent) }

    public var isCancelled: Bool { flag.load(ordering: .sequentiallyConsistent) }
}
