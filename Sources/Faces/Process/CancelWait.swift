import SmartCard

/// A provider's `cancelWait()`, to be called from a signal handler or the input thread.
/// `CardReaderProvider` is not `Sendable` as a whole (its card sessions belong to the workflow's
/// thread), but `cancelWait` is made to be called from another thread while `waitForChange`
/// runs (its contract); this is the only member reached from there.
struct CancelWait: Sendable {
    nonisolated(unsafe) private let provider: any CardReaderProvider

    init(_ provider: any CardReaderProvider) { self.provider = provider }

    func callAsFunction() { provider.cancelWait() }
}
