import CardAccess

/// The few DER encodings the card builds its files from.
enum DER {
    /// The content bytes of an OBJECT IDENTIFIER in dotted form ("0.4.0.127.0.7.2.2.4.2.2").
    static func objectIdentifierContent(_ dotted: String) -> [UInt8] {
        let arcs = dotted.split(separator: ".").map { UInt64($0)! }
        precondition(arcs.count >= 2, "an OID has at least two arcs")
        var out: [UInt8] = [UInt8(arcs[0] * 40 + arcs[1])]
        for arc in arcs.dropFirst(2) {
            var chunk: [UInt8] = [UInt8(arc & 0x7F)]
            var rest = arc >> 7
            while rest > 0 {
                chunk.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
                rest >>= 7
            }
            out += chunk
        }
        return out
    }

    static func objectIdentifier(_ dotted: String) -> TLV { TLV(tag: 0x06, value: objectIdentifierContent(dotted)) }

    /// A non-negative INTEGER.
    static func integer(_ n: Int) -> TLV {
        precondition(n >= 0)
        var bytes: [UInt8] = []
        var rest = n
        repeat {
            bytes.insert(UInt8(rest & 0xFF), at: 0)
            rest >>= 8
        } while rest > 0
        if bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
        return TLV(tag: 0x02, value: bytes)
    }

    static func sequence(_ children: [TLV]) -> TLV { TLV(tag: 0x30, children: children) }

    /// A SET OF, its elements sorted by their encoding as DER requires.
    static func setOf(_ elements: [TLV]) -> TLV {
        TLV(tag: 0x31, value: elements.map(\.bytes).sorted { $0.lexicographicallyPrecedes($1) }.flatMap { $0 })
    }
}
