import Dispatch
import SmartCard

/// A PC/SC call that pcsc-lite lets block without end (SCardConnect, SCardControl: they have no
/// timeout of their own, and a hung reader driver or pcscd keeps them waiting), run on a worker
/// while the caller waits at most `seconds`. When the wait ends first the call is abandoned:
/// the caller gets nil, and `abandon` runs on the worker once the call returns (if it ever
/// does) to release what the call got. The call must use a PC/SC context of its own, which no
/// other call shares, so that a blocked call blocks nothing else.
enum BoundedCall {
    static func run<T: Sendable>(
        seconds: Double, _ call: @escaping @Sendable () -> T, abandon: @escaping @Sendable (T) -> Void
    ) -> T? {
        let outcome = Outcome<T>()
        DispatchQueue.global().async {
            let value = call()
            if !outcome.deliver(value) { abandon(value) }
        }
        _ = outcome.done.wait(timeout: .now() + seconds)
        return outcome.take()
    }
}

/// The hand-over between the worker and the waiting caller. Unchecked Sendable: `value` and
/// `givenUp` are read and written only under `lock`.
private final class Outcome<T>: @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    private let lock = Lock()
    private var value: T?
    private var givenUp = false

    /// The worker's result; false when the caller has given up (the worker then cleans up).
    func deliver(_ result: T) -> Bool {
        lock.withLock {
            guard !givenUp else { return false }
            value = result
            done.signal()
            return true
        }
    }

    /// The result if it came in time; otherwise gives up, so that a late result is abandoned.
    func take() -> T? {
        lock.withLock {
            if let value { return value }
            givenUp = true
            return nil
        }
    }
}
