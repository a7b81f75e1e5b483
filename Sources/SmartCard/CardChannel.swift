/// Something that carries command APDUs to a card and brings back its responses: a PC/SC
/// connection, the in-process software card, or a secure messaging channel wrapped around
/// another channel.
public protocol CardChannel: AnyObject {
    /// Sends one command and returns the card's response. A status word other than 9000 is
    /// not an error here: callers decide what each status word means.
    func transmit(_ command: CommandAPDU) throws -> ResponseAPDU

    /// Sends a command exactly as encoded (no parsing, no re-encoding: Transmit forwards the eID
    /// server's already-protected APDUs unchanged) and returns the card's response as received.
    /// Channels that talk to a card implement it byte for byte; the default parses `encoded`
    /// and re-encodes it, which is only good for channels where the encoding cannot matter.
    func transmit(encoded: [UInt8]) throws -> [UInt8]

    /// Whether the channel (reader and card) accepts extended length APDUs.
    var supportsExtendedLength: Bool { get }
}

extension CardChannel {
    public func transmit(encoded: [UInt8]) throws -> [UInt8] {
        try transmit(CommandAPDU(bytes: encoded)).bytes
    }
}
