import SmartCard

/// BER-TLV objects, recursively into constructed ones; what parses is encoded again and must
/// parse to the same objects.
enum TLVFuzzing {
    static func run(_ data: [UInt8]) {
        guard let objects = try? TLV.parseAll(data) else { return }
        for object in objects { descend(object, depth: 0) }
        let encoded = objects.flatMap(\.bytes)
        guard let again = try? TLV.parseAll(encoded) else { preconditionFailure("encoded TLV does not parse again") }
        precondition(again == objects, "encoded TLV parses to other objects")
    }

    private static func descend(_ object: TLV, depth: Int) {
        guard object.isConstructed, depth < 32, let children = try? object.children() else { return }
        for child in children { descend(child, depth: depth + 1) }
    }
}
