import ArgumentParser
import CardSimulator
import EIDCrypto
import Faces
import PCSC
import SmartCard

/// Options every card command shares.
struct ReaderOptions: ParsableArguments {
    @Flag(help: "Print SDK messages as JSON, one object per line.")
    var json = false

    @Flag(help: "Add a reader named 'Simulator' with the software eID card in process (no pcscd needed).")
    var simulator = false

    /// Checks a card command's --reader against --simulator (which uses the in-process card only)
    /// and its --timeout.
    func validate(reader: String?, timeout: Double) throws {
        try Self.validate(simulator: simulator, reader: reader, timeout: timeout)
    }

    /// --simulator's software card computes with libcrypto from its start: without it, the sentence of
    /// what to install, before anything runs (ArgumentParser calls this for every command with these options).
    func validate() throws {
        try Self.validate(simulator: simulator)
    }

    static func validate(simulator: Bool) throws {
        if simulator, let problem = CryptoLibrary.loadProblem {
            throw ValidationError("--simulator: the software card needs OpenSSL, and \(problem)")
        }
    }

    static func validate(simulator: Bool, reader: String?, timeout: Double) throws {
        try validate(simulator: simulator)
        if simulator, let reader, reader != SimulatedCardChannel.readerName {
            throw ValidationError(
                "--simulator uses the in-process card (reader \(SimulatedCardChannel.readerName)), not \(reader): "
                    + "leave out --simulator to use another reader")
        }
        guard timeout > 0 else { throw ValidationError("--timeout must be a positive number of seconds") }
    }

    /// The process's face context with the readers these options ask for.
    func context() -> FaceContext {
        FaceContext.process(readers: Self.readers(simulator: simulator))
    }

    /// The readers to use: PC/SC (unless it is down and the simulator was asked for) plus the
    /// simulator; GET_READER_LIST looks at PC/SC through a connection of its own.
    static func readers(simulator: Bool) -> ReaderProviders {
        ReaderProviders(
            open: {
                var providers: [any CardReaderProvider] = []
                do {
                    providers.append(try PCSCReaderProvider())
                } catch let error as CardError {
                    if !simulator { throw error }
                }
                if simulator { providers.append(SimulatorReaderProvider()) }
                return providers.count == 1 ? providers[0] : CombinedReaderProvider(providers)
            },
            lookup: { try? PCSCReaderProvider() })
    }
}

extension Int32 {
    /// Ends the command with this exit status (nothing when it is 0).
    func exitUnlessSuccess() throws {
        if self != 0 { throw ExitCode(self) }
    }
}
