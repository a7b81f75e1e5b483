import CardAccess
import PCSC

/// Readers and cards through the PC/SC service (pcscd).
public final class PCSCReaderProvider: CardReaderProvider {
    let context: PCSCContext
    private var features: [String: ReaderFeatures] = [:]
    private var known: [ReaderState] = []

    /// Connects to pcscd; throws `PCSCError.serviceNotRunning` when it is not running.
    public init() throws {
        context = try PCSCContext()
    }

    public func readers() throws -> [ReaderSnapshot] {
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

    public func connect(reader: String, exclusive: Bool) throws -> CardConnection {
        do {
            return try context.connect(reader: reader, exclusive: exclusive)
        } catch PCSCError.cardRemoved {
            throw CardError.cardRemoved
        }
    }

    public func waitForChange(timeout: Double) throws {
        if known.isEmpty { known = try context.states(of: context.readerNames()) }
        var states = known
        do {
            try context.waitForChange(&states, timeoutMilliseconds: UInt32(max(0, timeout) * 1000), watchReaderList: true)
        } catch PCSCError.cancelled {
            return
        }
        known = []
    }

    public func cancelWait() { context.cancel() }
}

extension PCSCCard: CardConnection {}
