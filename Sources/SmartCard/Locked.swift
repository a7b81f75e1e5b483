/// A value reached only under a `Lock`: the shape of the standard library's `Mutex`
/// (`withLock { value in … }`), on the project's one lock, so that every lock in eid is the same
/// POSIX mutex (`Lock`, `Condition`) and nothing needs the Synchronization module's availability.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = Lock()
    private var value: Value

    public init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, the lock held.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&value) }
    }
}
