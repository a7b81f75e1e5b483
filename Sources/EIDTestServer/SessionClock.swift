import Dispatch

/// Where a session reads the time from, to find out it has stalled: seconds on a clock that
/// only goes forward. Tests inject one they move by hand.
public protocol SessionClock: Sendable {
    /// Seconds since an arbitrary start.
    func now() -> Double
}

/// The monotonic clock (Dispatch's uptime): a changed wall clock does not end sessions early.
public struct MonotonicSessionClock: SessionClock {
    public init() {}
    public func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}
