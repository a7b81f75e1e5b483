import SmartCard

#if canImport(Glibc)
import Glibc
#endif

/// The reader named "Simulator": the software eID card in process, always present. Its PIN
/// state lives as long as the provider.
public final class SimulatorReaderProvider: CardReaderProvider {
    public let card: SimulatedEIDCard

    public init(card: SimulatedEIDCard = SimulatedEIDCard()) { self.card = card }

    public func readers() throws -> [ReaderSnapshot] {
        [ReaderSnapshot(name: SimulatedCardChannel.readerName, cardPresent: true)]
    }

    public func connect(reader: String, exclusive: Bool) throws -> CardConnection {
        guard reader == SimulatedCardChannel.readerName else { throw CardError.cardRemoved }
        return SimulatedCardChannel(card: card)
    }

    /// The simulator never changes by itself; waiting is sleeping.
    public func waitForChange(timeout: Double) throws {
        usleep(UInt32(min(max(timeout, 0), 0.5) * 1_000_000))
    }

    public func cancelWait() {}
}

/// A card session with the simulator: the card keeps its session, as a card left in a PC/SC
/// reader does, unless it is reset.
extension SimulatedCardChannel: CardConnection {
    public func disconnect(resetCard: Bool) {
        if resetCard { card.reset() }
    }
}
