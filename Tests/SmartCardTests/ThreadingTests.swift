import SmartCard
import Testing

/// The POSIX lock, condition and thread that replaced Foundation's in the executables.
@Suite struct ThreadingTests {
    @Test func aConditionWaitEndsAtItsTimeout() {
        let condition = Condition()
        let deadline = Deadline(secondsFromNow: 5)
        let start = Deadline(secondsFromNow: 0.2)
        condition.lock()
        condition.wait(seconds: 0.2)
        condition.unlock()
        #expect(start.hasPassed)
        #expect(deadline.remaining > 4)
    }

    @Test func aDetachedThreadRunsAndWakesTheWaiter() {
        let condition = Condition()
        let state = Box()
        let deadline = Deadline(secondsFromNow: 5)
        #expect(
            DetachedThread.start {
                condition.lock()
                state.done = true
                condition.broadcast()
                condition.unlock()
            })
        condition.lock()
        while !state.done && !deadline.hasPassed { condition.wait(seconds: 0.5) }
        condition.unlock()
        #expect(state.done)
        #expect(deadline.remaining > 4)
    }

    @Test func aLockKeepsCountsWhole() {
        let lock = Lock()
        let state = Box()
        let finished = Condition()
        let threads = 4
        for _ in 0..<threads {
            DetachedThread.start {
                for _ in 0..<10_000 { lock.withLock { state.count += 1 } }
                finished.lock()
                state.finished += 1
                finished.broadcast()
                finished.unlock()
            }
        }
        let deadline = Deadline(secondsFromNow: 10)
        finished.lock()
        while state.finished < threads && !deadline.hasPassed { finished.wait(seconds: 0.5) }
        finished.unlock()
        #expect(lock.withLock { state.count } == threads * 10_000)
    }

    /// `Locked`, the `Mutex`-shaped value on the same lock: concurrent updates all land, and a
    /// condition's waiters see the state of the thread that broadcast.
    @Test func aLockedValueKeepsCountsWhole() {
        let count = Locked(0)
        let finished = Condition()
        let state = Box()
        let threads = 4
        for _ in 0..<threads {
            DetachedThread.start {
                for _ in 0..<10_000 { count.withLock { $0 += 1 } }
                finished.lock()
                state.finished += 1
                finished.broadcast()
                finished.unlock()
            }
        }
        let deadline = Deadline(secondsFromNow: 10)
        finished.lock()
        while state.finished < threads && !deadline.hasPassed { finished.wait(seconds: 0.5) }
        finished.unlock()
        #expect(count.withLock { $0 } == threads * 10_000)
    }

    private final class Box: @unchecked Sendable {
        var done = false
        var count = 0
        var finished = 0
    }
}
