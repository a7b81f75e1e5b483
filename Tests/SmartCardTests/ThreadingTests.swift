import SmartCard
import Testing

/// The POSIX lock, condition and thread that replaced Foundation's in the executables.
@Suite struct ThreadingTests {
    @Test func aConditionWaitEndsAtItsTimeout() {
        // Timing is the behaviour: nobody signals, so the wait ends at its timeout, and it ends.
        let condition = Condition()
        let start = ContinuousClock.now
        condition.lock()
        condition.wait(seconds: 0.2)
        condition.unlock()
        let elapsed = ContinuousClock.now - start
        #expect(elapsed >= .milliseconds(200) && elapsed < .seconds(30), "\(elapsed)")
    }

    @Test func aDetachedThreadRunsAndWakesTheWaiter() {
        let condition = Condition()
        let state = Box()
        // One wait as long as the deadline: ending well before it shows the broadcast woke it.
        let deadline = Deadline(secondsFromNow: 60)
        #expect(
            DetachedThread.start {
                condition.lock()
                state.done = true
                condition.broadcast()
                condition.unlock()
            })
        condition.lock()
        while !state.done && !deadline.hasPassed { condition.wait(seconds: deadline.remaining) }
        condition.unlock()
        #expect(state.done)
        #expect(deadline.remaining > 30, "the broadcast woke the waiter, not its timeout")
    }

    @Test func aLockKeepsCountsWhole() {
        let lock = Lock()
        let state = Box()
        Self.onThreads(4) { lock.withLock { state.count += 1 } }
        #expect(lock.withLock { state.count } == 4 * 10_000)
    }

    /// `Locked`, the `Mutex`-shaped value on the same lock: concurrent updates all land, and a
    /// condition's waiters see the state of the thread that broadcast.
    @Test func aLockedValueKeepsCountsWhole() {
        let count = Locked(0)
        Self.onThreads(4) { count.withLock { $0 += 1 } }
        #expect(count.withLock { $0 } == 4 * 10_000)
    }

    /// Runs `step` 10,000 times on each of `threads` detached threads and waits (at most 60 s) until
    /// every thread has said it finished under a condition.
    private static func onThreads(_ threads: Int, _ step: @escaping @Sendable () -> Void) {
        let finished = Condition()
        let state = Box()
        for _ in 0..<threads {
            DetachedThread.start {
                for _ in 0..<10_000 { step() }
                finished.lock()
                state.finished += 1
                finished.broadcast()
                finished.unlock()
            }
        }
        let deadline = Deadline(secondsFromNow: 60)
        finished.lock()
        while state.finished < threads && !deadline.hasPassed { finished.wait(seconds: 0.5) }
        finished.unlock()
    }

    private final class Box: @unchecked Sendable {
        var done = false
        var count = 0
        var finished = 0
    }
}
