import Dispatch
import SmartCard
import Testing

@testable import PCSC

/// The bounded wait around PC/SC calls that have no timeout of their own (SCardConnect,
/// SCardControl): a hung call is given up after the timeout and cleaned up if it ever returns.
@Suite struct BoundedCallTests {
    @Test func aCallThatReturnsInTimeGivesItsResult() {
        #expect(BoundedCall.run(seconds: 30, { 42 }, abandon: { _ in Issue.record("abandoned a call in time") }) == 42)
    }

    @Test func aHungCallIsGivenUpAndItsLateResultReleased() {
        let release = DispatchSemaphore(value: 0)
        let abandoned = DispatchSemaphore(value: 0)
        let start = DispatchTime.now()
        let result = BoundedCall.run(
            seconds: 0.2,
            {
                release.wait()  // a reader that does not answer
                return 7
            },
            abandon: { value in
                #expect(value == 7)
                abandoned.signal()
            })
        let waited = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        #expect(result == nil)
        // Timing is the behaviour: given up at its timeout, not when the call returns (never, here).
        #expect(waited >= 0.2 && waited < 30)
        release.signal()
        #expect(abandoned.wait(timeout: .now() + 30) == .success, "the late result was not released")
    }
}
