import SmartCard

/// The data objects of a received secure messaging command or response (BSI TR-03110-3, F;
/// ICAO 9303-11, 9.8.5), read from the bytes as received: zero or one of each object `order`
/// names, in that order, then DO'8E with the MAC as the very last object.
struct ProtectedObjects {
    /// The bytes before DO'8E, exactly as received: what the MAC covers (before padding).
    let macCovered: [UInt8]
    /// The value of DO'8E.
    let mac: [UInt8]
    private let values: [UInt32: [UInt8]]

    /// The objects of `bytes`, or nil when they are not BER-TLV, an object is not in `order`,
    /// comes twice or out of order, DO'8E is missing, or anything follows DO'8E.
    init?(_ bytes: [UInt8], order: [UInt32]) {
        var offset = 0
        var next = order.startIndex
        var values: [UInt32: [UInt8]] = [:]
        while offset < bytes.count {
            let start = offset
            guard let object = try? TLV.read(bytes, at: &offset) else { return nil }
            if object.tag == 0x8E {
                guard offset == bytes.count else { return nil }
                macCovered = Array(bytes[..<start])
                mac = object.value
                self.values = values
                return
            }
            guard let position = order[next...].firstIndex(of: object.tag) else { return nil }
            next = position + 1
            values[object.tag] = object.value
        }
        return nil
    }

    /// The value of the object with `tag`, if it was present.
    subscript(tag: UInt32) -> [UInt8]? { values[tag] }
}
