/// IFDStatus: one slot (card reader) of the phone, sent after IFDGetStatus and pushed whenever
/// the slot or its card changes.
public struct IFDStatus: Equatable, Sendable {
    public var slotName: String
    /// The phone is in PIN-pad mode: the PIN is typed on the phone (IFDEstablishPACEChannel,
    /// IFDModifyPIN go through).
    public var hasPINPad: Bool
    /// The longest APDU the slot takes; -1 when the phone does not say.
    public var maxAPDULength: Int
    /// The slot is usable (on a phone: NFC is on).
    public var connectedReader: Bool
    public var cardAvailable: Bool

    public init(slotName: String, hasPINPad: Bool, maxAPDULength: Int, connectedReader: Bool, cardAvailable: Bool) {
        self.slotName = slotName
        self.hasPINPad = hasPINPad
        self.maxAPDULength = maxAPDULength
        self.connectedReader = connectedReader
        self.cardAvailable = cardAvailable
    }

    /// Reads an IFDStatus message (v2: PINPad; PINCapabilities.PACE of v0 is accepted as well).
    public init(_ message: IFDIncomingMessage) throws(RemoteIFDError) {
        guard message.type == .status else { throw .malformedMessage("not an IFDStatus") }
        slotName = try message.string("SlotName")
        if message.body["PINPad"] != nil {
            hasPINPad = try message.bool("PINPad")
        } else if case .bool(let pace)? = message.body["PINCapabilities"]?["PACE"] {
            hasPINPad = pace
        } else {
            throw .malformedMessage("PINPad is missing or not a boolean")
        }
        switch message.body["MaxAPDULength"] {
        case .integer(let n)?: maxAPDULength = n == 0 ? -1 : n
        default: throw .malformedMessage("MaxAPDULength is missing or not an integer")
        }
        connectedReader = try message.bool("ConnectedReader")
        cardAvailable = try message.bool("CardAvailable")
    }

    /// Whether the slot takes extended length APDUs (more than 261 bytes; -1: unknown, assumed).
    public var supportsExtendedLength: Bool { maxAPDULength < 0 || maxAPDULength > 261 }
}
