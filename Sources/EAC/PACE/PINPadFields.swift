/// Reads the length-prefixed fields of the PC/SC Part 10 AMD1 structures: lengths are one byte,
/// or two bytes little endian ("byte ordering is decided by machine architecture", and every
/// reader and AusweisApp's remote reader send little endian). Every read is bounded by the bytes
/// at hand.
struct PINPadFieldReader {
    let bytes: [UInt8]
    private(set) var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { offset == bytes.count }

    mutating func take(_ count: Int, _ field: String) throws(PINPadStructureError) -> [UInt8] {
        guard count <= bytes.count - offset else { throw .truncated(field: field) }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    mutating func byte(_ field: String) throws(PINPadStructureError) -> UInt8 { try take(1, field)[0] }

    mutating func uint16(_ field: String) throws(PINPadStructureError) -> Int {
        let b = try take(2, field)
        return Int(b[0]) | Int(b[1]) << 8
    }

    mutating func uint32(_ field: String) throws(PINPadStructureError) -> UInt32 {
        let b = try take(4, field)
        return UInt32(b[0]) | UInt32(b[1]) << 8 | UInt32(b[2]) << 16 | UInt32(b[3]) << 24
    }

    /// A field after a one-byte length.
    mutating func shortField(_ field: String) throws(PINPadStructureError) -> [UInt8] {
        try take(Int(try byte("the length of " + field)), field)
    }

    /// A field after a two-byte length.
    mutating func longField(_ field: String) throws(PINPadStructureError) -> [UInt8] {
        try take(try uint16("the length of " + field), field)
    }

    func requireEnd() throws(PINPadStructureError) {
        guard isAtEnd else { throw .trailingBytes(count: bytes.count - offset) }
    }
}

/// Writes the same fields.
enum PINPadFieldWriter {
    static func uint16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }

    static func uint32(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
    }

    static func shortField(_ value: [UInt8], _ field: String) throws(PINPadStructureError) -> [UInt8] {
        guard value.count <= 0xFF else { throw .fieldTooLong(field: field, length: value.count) }
        return [UInt8(value.count)] + value
    }

    static func longField(_ value: [UInt8], _ field: String) throws(PINPadStructureError) -> [UInt8] {
        guard value.count <= 0xFFFF else { throw .fieldTooLong(field: field, length: value.count) }
        return uint16(value.count) + value
    }
}
