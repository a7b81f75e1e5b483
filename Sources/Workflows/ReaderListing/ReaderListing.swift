import SDK
import SmartCard

/// The readers and the cards in them, as READER_LIST and READER messages describe them.
public struct ReaderListing {
    let provider: CardReaderProvider

    public init(provider: CardReaderProvider) { self.provider = provider }

    /// Every attached reader with its card read as `EIDCardState` reads it. A card removed
    /// while it is read shows as no card.
    public func list() throws -> [ReaderInfo] {
        try entries().map(\.info)
    }

    /// A reader as listed, and whether its card could not be read because another program
    /// holds it (the SDK shows such a card as unknown, `{}`; a person is told why).
    ///
    /// `info.keypad` is the SDK's: whether the PIN is typed on the reader's keypad (a client then
    /// sends SET_PIN without a value): a PC/SC reader with EXECUTE_PACE, a phone in PIN-pad mode;
    /// `hasPINPad` says the same for a person's listing.
    public struct Entry: Equatable, Sendable {
        public var info: ReaderInfo
        public var cardInUse: Bool
        public var hasPINPad: Bool
    }

    /// `list()` with the reason an unknown card is unknown.
    public func entries() throws -> [Entry] {
        try provider.readers().map(entry)
    }

    /// One reader; reads the card when one is present.
    public func describe(_ reader: ReaderSnapshot) -> ReaderInfo { entry(reader).info }

    func entry(_ reader: ReaderSnapshot) -> Entry {
        var inUse = false
        var card = CardPresence.none
        if reader.cardPresent { (card, inUse) = readCard(in: reader) }
        return Entry(
            info: ReaderInfo(name: reader.name, attached: true, keypad: reader.hasPINPad, card: card),
            cardInUse: inUse, hasPINPad: reader.hasPINPad)
    }

    func readCard(in reader: ReaderSnapshot) -> (CardPresence, inUse: Bool) {
        do {
            // Exclusive for its two commands: a plain command into another program's card
            // session would end that session's secure messaging.
            let connection = try provider.connect(reader: reader.name, exclusive: true)
            defer { connection.disconnect() }
            return (try EIDCardState.read(connection), false)
        } catch CardError.cardRemoved {
            return (.none, false)
        } catch CardError.cardInUse {
            return (.unknown, true)
        } catch {
            // A card pulled in the middle of the read does not always say so: the reader may
            // report a failed transfer before it reports the card gone. Such a card is not a
            // card of unknown kind but no card, as the SDK tells it.
            if cardLeft(reader) { return (.none, false) }
            // A card that cannot be talked to (mute, answering garbage) is shown as present
            // but unknown rather than hidden.
            return (.unknown, false)
        }
    }

    /// Seconds a failed read waits for the reader to tell whether its card left (pcscd polls
    /// a reader's card presence a few times a second).
    static let removalPatience = 1.0

    /// Whether the card seen in `reader` has left it (or another took its place, or the reader
    /// went), as the provider tells within `removalPatience` seconds.
    func cardLeft(_ reader: ReaderSnapshot) -> Bool {
        let end = Deadline(secondsFromNow: Self.removalPatience)
        while true {
            guard let readers = try? provider.readers() else { return false }
            guard let now = readers.first(where: { $0.name == reader.name }) else { return true }
            if !now.cardPresent || now.cardEvents != reader.cardEvents { return true }
            if end.hasPassed { return false }
            do { try provider.waitForChange(timeout: end.remaining) } catch { return false }
        }
    }

    /// Watches readers and cards until `shouldStop` returns true, sending a READER message for
    /// every reader that appears, disappears, or whose card is inserted or removed. Starts by
    /// sending one READER message per attached reader.
    public func watch(send: (SDKMessage) -> Void, poll: Double = 0.5, shouldStop: () -> Bool) throws {
        var seen: [String: ReaderSnapshot] = [:]
        // What was last told of each reader: a card that left while it was read is told as no
        // card at once, and the removal the next look sees is then not told a second time.
        var told: [String: ReaderInfo] = [:]
        while !shouldStop() {
            let now = try provider.readers()
            for reader in now where seen[reader.name] != reader {
                let before = seen[reader.name]
                if before == nil || before?.cardPresent != reader.cardPresent || before?.cardEvents != reader.cardEvents
                {
                    let info = describe(reader)
                    if info.card == .none && told[reader.name] == info { continue }
                    send(.reader(info))
                    told[reader.name] = info
                }
            }
            for (name, _) in seen where !now.contains(where: { $0.name == name }) {
                let info = ReaderInfo(name: name, attached: false, keypad: false, card: .none)
                send(.reader(info))
                told[name] = info
            }
            seen = Dictionary(now.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
            if shouldStop() { break }
            try provider.waitForChange(timeout: poll)
        }
    }
}
