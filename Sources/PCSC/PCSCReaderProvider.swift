import SmartCard

/// Readers and cards through the PC/SC service (pcscd). Every failure leaves it as a
/// `CardError` (`PCSCError.cardError`), so the workflows never see PC/SC.
public final class PCSCReaderProvider: CardReaderProvider {
    let context: PCSCContext
    private var known: [ReaderState] = []
    /// Readers this provider could not ask for their features: not asked again by it (a hung
    /// driver costs `PCSCContext.callTimeout` once), and not kept for the process.
    private var unanswered: Set<String> = []

    /// The features of the readers attached, by name, for every provider of the process: a
    /// long-running process (`eid serve`, one provider per workflow) asks each reader once, not
    /// once per workflow (a direct connection and a control request through pcscd per reader,
    /// every time). Only answers are kept; a reader that could not be asked counts as having none
    /// and is asked again next time. A name that leaves the reader list leaves the cache, so a
    /// reader plugged in again is asked again.
    private static let knownFeatures = Locked<[String: ReaderFeatures]>([:])

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
            let attached = states.filter { !$0.isGone }
            let attachedNames = Set(attached.map(\.name))
            Self.knownFeatures.withLock { $0 = $0.filter { attachedNames.contains($0.key) } }
            return attached.map { state in
                let f = features(of: state.name)
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
            let f = features(of: reader)
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

    /// The features of `reader`: from the process's cache, else asked once by this provider (and
    /// kept for the process when answered).
    private func features(of reader: String) -> ReaderFeatures {
        if let known = Self.knownFeatures.withLock({ $0[reader] }) { return known }
        guard !unanswered.contains(reader), let asked = context.features(of: reader) else {
            unanswered.insert(reader)
            return ReaderFeatures()
        }
        Self.knownFeatures.withLock { $0[reader] = asked }
        return asked
    }

    private func mapped<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as PCSCError {
            throw error.cardError
        }
    }
}

extension PCSCCard: CardConnection {}
