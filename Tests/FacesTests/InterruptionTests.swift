import CardSimulator
import Glibc
import SmartCard
import Testing
import Workflows

@testable import Faces

/// The grace period after a stop signal: it ends the process only if the workflow has not ended
/// by then (a card command stuck), never after (eid serve outlives the workflows it cancels).
@Suite struct InterruptionTests {
    func interruption(_ harness: Harness) -> Interruption {
        Interruption(
            context: harness.context, terminal: nil, queue: nil, cancelWait: CancelWait(SimulatorReaderProvider()))
    }

    func armed(_ harness: Harness) -> Bool {
        let deadline = Deadline(secondsFromNow: 30)
        while harness.clock.delays.isEmpty && !deadline.hasPassed { usleep(10_000) }
        return harness.clock.delays == [ChangePINFace.interruptGrace]
    }

    @Test func aWorkflowStillRunningAtTheGracePeriodsEndEndsTheProcess() {
        let harness = Harness()
        let watching = interruption(harness)
        harness.signals.raiseStop(SIGTERM)
        #expect(armed(harness))
        harness.clock.runAll()
        #expect(harness.terminations.all == [FailureReason.interruptedCardBusy.exitStatus])
        #expect(harness.sink.error == ["eid: \(FailureReason.interruptedCardBusy.sentence)"])
        withExtendedLifetime(watching) {}
    }

    @Test func aWorkflowThatEndedInTimeLeavesTheProcessAlone() {
        let harness = Harness()
        var watching: Interruption? = interruption(harness)
        harness.signals.raiseStop(SIGINT)
        #expect(armed(harness))
        withExtendedLifetime(watching) {}
        watching = nil
        harness.clock.runAll()
        #expect(harness.terminations.all.isEmpty)
        #expect(harness.sink.error.isEmpty)
    }
}
