import SmartCard

/// Readers and cards through the PC/SC service (pcscd). Every failure leaves it as a
/// `CardError` (`PCSCError.cardError`), so the workflows never see PC/SC.
public final class PCSCReaderProvider: CardReaderProvider {
    let context: PCSCContext
    private var features: [String: ReaderFeatures] = [:]
    private var known: [ReaderState] = []

    /// Connects to pcscd; throws `CardError.readerServiceUnavailable` when that fails (pcscd
    /// not running, or not reachable).
    public init() throws {
        do {
            context = try PCSCContext()
        } catch let error as PCSCError {
            throw CardError.readerServiceUnavailable(error.description)
        }
    }

    public func readers() throws -> [ReaderSnapshot] {
        try mapped {
            let names = try context.readerNames()
            let states = try context.states(of: names)
            known = states
            return states.filter { !$0.isGone }.map { state in
                let f = features[state.name] ?? context.features(of: state.name)
                features[state.name] = f
                return ReaderSnapshot(
                    name: state.name, hasPINPad: f.hasPACEKeypad, cardPresent: state.isCardPresent,
                    cardEvents: state.eventCounter)
            }
        }
    }

    /// A reader with FEATURE_EXECUTE_PACE gives a `PCSCPINPadCard` (a `PINPadConnection`): the
    /// workflows then run PACE on the reader's PIN pad.
    public func connect(reader: String, exclusive: Bool) throws -> CardConnection {
        try mapped {
            // The features first: their direct connection would not get past an exclusive one.
            let f = features[reader] ?? context.features(of: reader)
            features[reader] = f
            let card = try context.connect(reader: reader, exclusive: exclusive)
            return PCSCPINPadCard(card: card, features: f) ?? card
        }
    }

    public func waitForChange(timeout: Double) throws {
        try mapped {
            if known.isEmpty { known = try context.states(of: context.readerNames()) }
            var states = known
            do {
                try context.waitForChange(
                    &states, timeoutMilliseconds: UInt32(max(0, timeout) * 1000), watchReaderList: true)
            } catch PCSCError.cancelled {
                return
            }
            known = []
        }
    }

    public func cancelWait() { context.cancel() }

    private func mapped<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as PCSCError {
            throw error.cardError
        }
    }
}

extension PCSCCard: CardConnection {}
