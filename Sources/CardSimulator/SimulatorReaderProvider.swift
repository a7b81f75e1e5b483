import SmartCard

#if canImport(Glibc)
import Glibc
#endif

/// The reader named "Simulator": the software eID card in process, always present. Its PIN
/// state lives as long as the provider. With a `keypad` (tests only) it is a PIN-pad reader: its
/// connections are `SimulatedPINPadChannel`s, which take the passwords from the keypad.
public final class SimulatorReaderProvider: CardReaderProvider {
    public let card: SimulatedEIDCard
    public let keypad: SimulatedKeypad?

    public init(card: SimulatedEIDCard = SimulatedEIDCard(), keypad: SimulatedKeypad? = nil) {
        self.card = card
        self.keypad = keypad
    }

    public func readers() throws -> [ReaderSnapshot] {
        [ReaderSnapshot(name: SimulatedCardChannel.readerName, hasPINPad: keypad != nil, cardPresent: true)]
    }

    public func connect(reader: String, exclusive: Bool) throws -> CardConnection {
        guard reader == SimulatedCardChannel.readerName else { throw CardError.cardRemoved }
        if let keypad { return SimulatedPINPadChannel(card: card, keypad: keypad) }
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
