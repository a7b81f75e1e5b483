#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `Lock` with a condition variable (POSIX), the part of Foundation's `NSCondition` this project
/// uses. Waits are bounded: `wait(seconds:)` returns after at most that long.
public final class Condition: @unchecked Sendable {
    private let mutex = Lock()
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        #if canImport(Glibc)
        // Timed waits on the monotonic clock, which a wall-clock jump does not move.
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
        #else
        pthread_cond_init(condition, nil)
        #endif
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
    }

    public func lock() { mutex.lock() }

    public func unlock() { mutex.unlock() }

    /// Wakes every waiter. Call with the lock held.
    public func broadcast() { pthread_cond_broadcast(condition) }

    /// Releases the lock, waits for `broadcast` or at most `seconds`, and takes the lock again.
    /// Call with the lock held; a spurious wake-up is possible, so check the state again.
    public func wait(seconds: Double) {
        let nanoseconds = Int(max(0, min(seconds, 3600)) * 1e9)
        #if canImport(Glibc)
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let total = now.tv_nsec + nanoseconds % 1_000_000_000
        var until = timespec(
            tv_sec: now.tv_sec + nanoseconds / 1_000_000_000 + total / 1_000_000_000,
            tv_nsec: total % 1_000_000_000)
        pthread_cond_timedwait(condition, mutex.mutex, &until)
        #else
        var relative = timespec(tv_sec: nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
        pthread_cond_timedwait_relative_np(condition, mutex.mutex, &relative)
        #endif
    }
}
