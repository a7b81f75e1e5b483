/// A card reader as the SDK describes it in READER, READER_LIST and the ENTER_* messages.
public struct ReaderInfo: Equatable, Sendable {
    public var name: String
    public var attached: Bool
    /// Whether the reader can run PACE with its own PIN pad (PC/SC part 10 EXECUTE_PACE).
    public var keypad: Bool
    /// Whether SET_CARD can put a card into it (the SDK's `insertable`: only a simulator).
    public var insertable: Bool
    public var card: CardPresence

    public init(
        name: String, attached: Bool = true, keypad: Bool = false, insertable: Bool = false, card: CardPresence
    ) {
        self.name = name
        self.attached = attached
        self.keypad = keypad
        self.insertable = insertable
        self.card = card
    }
}

/// What lies in a reader.
public enum CardPresence: Equatable, Sendable {
    /// No card: `"card": null`.
    case none
    /// A card that is not an eID card: `"card": {}` at API level 3, `"card": null` below.
    case unknown
    /// An eID card and its PIN state.
    case eID(CardInfo)

    public var eIDCard: CardInfo? {
        if case .eID(let info) = self { return info }
        return nil
    }
}

/// The PIN state of an eID card.
public struct CardInfo: Equatable, Sendable, Codable {
    /// The PUK has been used 10 times and can no longer unblock the PIN.
    public var inoperative: Bool
    /// The eID function is switched off (only a citizen office can switch it on).
    public var deactivated: Bool
    /// PIN attempts left: 3, 2, 1 (suspended: CAN first), 0 (blocked: PUK needed).
    public var retryCounter: Int

    public init(inoperative: Bool = false, deactivated: Bool = false, retryCounter: Int) {
        self.inoperative = inoperative
        self.deactivated = deactivated
        self.retryCounter = retryCounter
    }
}
