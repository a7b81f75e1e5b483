import NIOCore
import SmartCard

extension EventLoopFuture where Value: Sendable {
    /// The future's result, waiting at most `seconds` on the calling thread (never an event loop's): nil when it
    /// did not complete in time. NIO's `wait()` has no timeout.
    func result(within seconds: Double) -> Result<Value, any Error>? {
        let condition = Condition()
        let outcome = Locked<Result<Value, any Error>?>(nil)
        whenComplete { result in
            condition.lock()
            outcome.withLock { $0 = result }
            condition.broadcast()
            condition.unlock()
        }
        let deadline = Deadline(secondsFromNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let result = outcome.withLock({ $0 }) { return result }
            if deadline.hasPassed { return nil }
            condition.wait(seconds: deadline.remaining)
        }
    }
}
