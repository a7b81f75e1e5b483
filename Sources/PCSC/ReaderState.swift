import CPCSC

/// What PC/SC knows about one reader: whether a card is present, whether the reader is still
/// there, and the card's ATR.
public struct ReaderState: Equatable, Sendable {
    public var name: String
    /// The SCARD_STATE_* flags last reported (without SCARD_STATE_CHANGED), with the event
    /// counter of pcsc-lite in the upper 16 bits.
    public var eventFlags: UInt32
    public var atr: [UInt8]

    public init(name: String, known: UInt32 = 0) {
        self.name = name
        self.eventFlags = known
        self.atr = []
    }

    mutating func update(eventFlags: UInt32, atr: [UInt8]) {
        self.eventFlags = eventFlags
        self.atr = isCardPresent ? atr : []
    }

    public var isCardPresent: Bool {
        eventFlags & UInt32(SCARD_STATE_PRESENT) != 0 && eventFlags & UInt32(SCARD_STATE_MUTE) == 0
    }

    /// The reader has gone (unplugged) or pcsc-lite does not know it.
    public var isGone: Bool {
        eventFlags & (UInt32(SCARD_STATE_UNKNOWN) | UInt32(SCARD_STATE_IGNORE)) != 0
    }

    /// The card counter pcsc-lite keeps per reader (upper 16 bits): it moves on every insertion
    /// or removal, so a card swapped between two looks is noticed.
    public var eventCounter: UInt32 { eventFlags >> 16 }
}
