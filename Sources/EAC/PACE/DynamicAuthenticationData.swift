import SmartCard

/// Dynamic Authentication Data, the '7C' template that General Authenticate carries in both
/// directions (BSI TR-03110-3, B.1 / D.3; ICAO 9303-11, 4.4.4).
public struct DynamicAuthenticationData: Equatable, Sendable {
    /// The context-specific tags inside '7C' for PACE.
    public enum Tag {
        /// 80: encrypted nonce z (card, step 1).
        public static let encryptedNonce: UInt32 = 0x80
        /// 81: mapping data of the terminal (step 2).
        public static let terminalMappingData: UInt32 = 0x81
        /// 82: mapping data of the card (step 2).
        public static let chipMappingData: UInt32 = 0x82
        /// 83: ephemeral public key of the terminal (step 3).
        public static let terminalEphemeralPublicKey: UInt32 = 0x83
        /// 84: ephemeral public key of the card (step 3).
        public static let chipEphemeralPublicKey: UInt32 = 0x84
        /// 85: authentication token of the terminal (step 4).
        public static let terminalToken: UInt32 = 0x85
        /// 86: authentication token of the card (step 4).
        public static let chipToken: UInt32 = 0x86
        /// 87: most recent certification authority reference (step 4).
        public static let certificationAuthorityReference1: UInt32 = 0x87
        /// 88: previous certification authority reference (step 4).
        public static let certificationAuthorityReference2: UInt32 = 0x88
        /// 8A: encrypted chip authentication data (PACE-CAM, step 4).
        public static let encryptedChipAuthenticationData: UInt32 = 0x8A
    }

    public static let templateTag: UInt32 = 0x7C

    public var objects: [TLV]

    public init(_ objects: [TLV] = []) { self.objects = objects }

    /// Reads a '7C' template; anything else (another tag, bad TLV, trailing bytes) throws.
    public init(bytes: [UInt8]) throws {
        let outer = try TLV.parse(bytes)
        guard outer.tag == Self.templateTag else {
            throw TLVError.unexpectedTag(expected: Self.templateTag, found: outer.tag)
        }
        objects = try outer.children()
    }

    /// The encoding 7C L objects.
    public var bytes: [UInt8] { TLV(tag: Self.templateTag, children: objects).bytes }

    /// The value of the first object with `tag`, or nil.
    public subscript(tag: UInt32) -> [UInt8]? { objects.first { $0.tag == tag }?.value }
}
