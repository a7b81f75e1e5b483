import ArgumentParser
import CardSimulator
import PCSC
import SmartCard
import Workflows

/// Options every card command shares.
struct ReaderOptions: ParsableArguments {
    @Flag(help: "Print SDK messages as JSON, one object per line.")
    var json = false

    @Flag(help: "Add a reader named 'Simulator' with the software eID card in process (no pcscd needed).")
    var simulator = false

    /// `provider()`, or the exit status for pcscd not running with its sentence on stderr.
    func openProvider() throws -> CardReaderProvider {
        do {
            return try provider()
        } catch let error as CardError {
            // The PC/SC provider fails to open only with `readerServiceUnavailable`.
            throw FailureReason(readerError: error).exit()
        }
    }

    /// The readers to use: PC/SC (unless it is down and the simulator was asked for) plus the
    /// simulator.
    func provider() throws -> CardReaderProvider {
        var providers: [CardReaderProvider] = []
        do {
            providers.append(try PCSCReaderProvider())
        } catch let error as CardError {
            if !simulator { throw error }
        }
        if simulator { providers.append(SimulatorReaderProvider()) }
        return providers.count == 1 ? providers[0] : CombinedReaderProvider(providers)
    }
}
