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

    @Flag(help: "Leave paired phones (eid pair) out: PC/SC readers only.")
    var noRemote = false

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
        FaceContext.process(readers: Self.readers(simulator: simulator, remote: !noRemote))
    }

    /// The readers to use: PC/SC (unless it is down and the simulator or a paired phone can stand
    /// in), the simulator, and the paired phones (`remote`, unless --simulator: its card is the one
    /// asked for); GET_READER_LIST looks at PC/SC and the paired phones through connections of its own (a
    /// phone a workflow holds refuses that second connection; the workflow's own report of it stands in).
    static func readers(simulator: Bool, remote: Bool = true) -> ReaderProviders {
        ReaderProviders(
            open: {
                var providers: [any CardReaderProvider] = []
                let phones = remote && !simulator ? PairedPhones.provider() : nil
                do {
                    providers.append(try PCSCReaderProvider())
                } catch let error as CardError {
                    if !simulator && phones == nil { throw error }
                }
                if simulator { providers.append(SimulatorReaderProvider()) }
                if let phones { providers.append(phones) }
                return providers.count == 1 ? providers[0] : CombinedReaderProvider(providers)
            },
            lookup: {
                var providers: [any CardReaderProvider] = []
                if let pcsc = try? PCSCReaderProvider() { providers.append(pcsc) }
                if remote && !simulator, let phones = PairedPhones.provider() { providers.append(phones) }
                return providers.count < 2 ? providers.first : CombinedReaderProvider(providers)
            })
    }
}

extension Int32 {
    /// Ends the command with this exit status (nothing when it is 0).
    func exitUnlessSuccess() throws {
        if self != 0 { throw ExitCode(self) }
    }
}
