import EAC

/// The InputData of EstablishPACEChannel as the phone reads it (PC/SC Part 10 AMD1, 2.6.16; in the
/// IFDEstablishPACEChannel of IFDInterface_WebSocket_v2): PasswordID (1 byte), CHAT (1-byte length,
/// the 7F4C object), the password (1-byte length; a phone ignores it, its user types the secret),
/// the certificate description (2-byte length, little endian). Lengths must add up exactly.
/// The phone's own reading, independent of eid's client-side structures.
public struct PhonePACEInput: Equatable, Sendable {
    public var passwordType: PACEPasswordType
    /// The CHAT object (7F4C …), nil when the input carries none.
    public var chat: [UInt8]?
    /// The certificate description (shown to the user on a real phone), possibly empty.
    public var certificateDescription: [UInt8]

    public init(passwordType: PACEPasswordType, chat: [UInt8]?, certificateDescription: [UInt8]) {
        self.passwordType = passwordType
        self.chat = chat
        self.certificateDescription = certificateDescription
    }

    /// Reads `bytes`; nil when the structure is broken (too short, an unknown PasswordID, lengths that
    /// do not add up to the whole).
    public init?(bytes: [UInt8]) {
        guard bytes.count >= 5, let type = PACEPasswordType(rawValue: bytes[0]) else { return nil }
        var offset = 1
        guard let chat = Self.field(bytes, &offset, lengthBytes: 1),
            Self.field(bytes, &offset, lengthBytes: 1) != nil,
            let description = Self.field(bytes, &offset, lengthBytes: 2), offset == bytes.count
        else { return nil }
        self.init(passwordType: type, chat: chat.isEmpty ? nil : chat, certificateDescription: description)
    }

    /// The encoding (with an empty password field, as a client without a keypad of its own sends it).
    public var bytes: [UInt8] {
        let chat = self.chat ?? []
        let description = certificateDescription
        return [passwordType.rawValue, UInt8(chat.count)] + chat + [0]
            + [UInt8(description.count & 0xFF), UInt8(description.count >> 8)] + description
    }

    /// A length-prefixed field at `offset` (length little endian), advancing `offset`; nil when it overruns.
    private static func field(_ bytes: [UInt8], _ offset: inout Int, lengthBytes: Int) -> [UInt8]? {
        guard offset + lengthBytes <= bytes.count else { return nil }
        var length = 0
        for i in 0..<lengthBytes { length |= Int(bytes[offset + i]) << (8 * i) }
        offset += lengthBytes
        guard offset + length <= bytes.count else { return nil }
        defer { offset += length }
        return Array(bytes[offset..<offset + length])
    }
}
