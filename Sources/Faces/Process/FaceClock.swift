import Dispatch

/// Runs work later: the grace period after a stop signal. A test's clock runs it when the test
/// says so.
public protocol FaceClock: Sendable {
    func schedule(after seconds: Double, _ work: @escaping @Sendable () -> Void)
}

/// The monotonic clock, through Dispatch.
public struct DispatchClock: FaceClock {
    public init() {}
    public func schedule(after seconds: Double, _ work: @escaping @Sendable () -> Void) {
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: work)
    }
}
