import SmartCard

/// The few DER (ITU-T X.690) building blocks SecurityInfos and CMS need, on top of the card
/// layer's BER-TLV.
public enum DER {
    static let integer: UInt32 = 0x02
    static let bitString: UInt32 = 0x03
    static let octetString: UInt32 = 0x04
    static let objectIdentifier: UInt32 = 0x06
    static let boolean: UInt32 = 0x01
    static let ia5String: UInt32 = 0x16
    static let sequence: UInt32 = 0x30
    static let set: UInt32 = 0x31

    /// Parses exactly one object, mapping TLV errors to `ASN1Error.malformed`.
    static func parse(_ bytes: [UInt8]) throws -> TLV {
        do { return try TLV.parse(bytes) } catch let e as TLVError { throw ASN1Error.malformed(e) }
    }

    /// The children of a constructed object.
    static func children(_ tlv: TLV) throws -> [TLV] {
        do { return try TLV.parseAll(tlv.value) } catch let e as TLVError { throw ASN1Error.malformed(e) }
    }

    static func expect(_ tlv: TLV, _ tag: UInt32) throws {
        guard tlv.tag == tag else { throw ASN1Error.unexpectedTag(expected: tag, found: tlv.tag) }
    }

    /// A non-negative INTEGER that fits an Int (minimal encoding required).
    static func readInteger(_ tlv: TLV) throws -> Int {
        try expect(tlv, integer)
        let v = tlv.value
        guard !v.isEmpty, v.count <= 8, v[0] & 0x80 == 0 else { throw ASN1Error.invalidInteger }
        if v.count > 1, v[0] == 0, v[1] & 0x80 == 0 { throw ASN1Error.invalidInteger }
        return v.reduce(0) { $0 << 8 | Int($1) }
    }

    public static func encodeInteger(_ n: Int) -> TLV {
        precondition(n >= 0, "only non-negative integers are encoded")
        var bytes = unsignedBytes(n)
        if bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
        return TLV(tag: integer, value: bytes)
    }

    /// The big-endian bytes of a non-negative integer without leading zeros (at least one byte).
    static func unsignedBytes(_ n: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var x = n
        repeat {
            bytes.insert(UInt8(x & 0xFF), at: 0)
            x >>= 8
        } while x > 0
        return bytes
    }

    static func readObjectIdentifier(_ tlv: TLV) throws -> OID {
        try expect(tlv, objectIdentifier)
        return try OID(derValue: tlv.value)
    }

    /// The content of a BIT STRING with no unused bits.
    static func readBitString(_ tlv: TLV) throws -> [UInt8] {
        try expect(tlv, bitString)
        guard tlv.value.first == 0 else { throw ASN1Error.invalidContent("BIT STRING with unused bits") }
        return Array(tlv.value.dropFirst())
    }

    static func readIA5String(_ tlv: TLV) throws -> String {
        try expect(tlv, ia5String)
        guard tlv.value.allSatisfy({ $0 < 0x80 }) else { throw ASN1Error.invalidContent("IA5String with non-ASCII") }
        return String(decoding: tlv.value, as: UTF8.self)
    }
}
