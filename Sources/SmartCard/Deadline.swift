import Dispatch

/// A point in time on the monotonic clock, for every wait with a timeout: the wall clock may
/// jump (NTP, a suspended laptop), the monotonic one does not.
public struct Deadline: Sendable {
    private let uptimeNanoseconds: UInt64

    /// `seconds` from now.
    public init(secondsFromNow seconds: Double) {
        let delta = seconds <= 0 ? 0 : UInt64(min(seconds, 1e9) * 1e9)
        uptimeNanoseconds = DispatchTime.now().uptimeNanoseconds &+ delta
    }

    /// Seconds left, 0 once passed.
    public var remaining: Double {
        let now = DispatchTime.now().uptimeNanoseconds
        return now >= uptimeNanoseconds ? 0 : Double(uptimeNanoseconds - now) / 1e9
    }

    public var hasPassed: Bool { remaining == 0 }
}
