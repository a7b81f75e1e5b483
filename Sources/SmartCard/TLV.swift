/// A BER-TLV data object (ISO/IEC 8825-1, as used by ISO/IEC 7816-4 and the eID card):
/// multi-byte tags, definite short and long form lengths. Reading is strict: a truncated
/// object, an indefinite or oversized length, or bytes left over are errors, never a crash.
public struct TLV: Equatable, Sendable {
    /// The tag bytes as one number, e.g. 0x06, 0x7F49, 0x5F29.
    public var tag: UInt32
    public var value: [UInt8]

    public init(tag: UInt32, value: [UInt8]) {
        self.tag = tag
        self.value = value
    }

    /// A constructed object whose value is the encoding of `children`.
    public init(tag: UInt32, children: [TLV]) {
        self.tag = tag
        self.value = children.flatMap(\.bytes)
    }

    /// Whether the tag's first byte has the constructed bit (0x20).
    public var isConstructed: Bool { tagBytes[0] & 0x20 != 0 }

    public var tagBytes: [UInt8] {
        var t = tag
        var out: [UInt8] = []
        repeat {
            out.insert(UInt8(t & 0xFF), at: 0)
            t >>= 8
        } while t != 0
        return out
    }

    /// The encoding: tag, length (shortest form), value.
    public var bytes: [UInt8] { tagBytes + TLV.encodeLength(value.count) + value }

    /// The objects inside a constructed object's value.
    public func children() throws -> [TLV] { try TLV.parseAll(value) }

    /// The first child with `tag`, or nil.
    public func child(_ tag: UInt32) throws -> TLV? { try children().first { $0.tag == tag } }

    public static func encodeLength(_ n: Int) -> [UInt8] {
        switch n {
        case ..<0x80: return [UInt8(n)]
        case ..<0x100: return [0x81, UInt8(n)]
        case ..<0x10000: return [0x82, UInt8(n >> 8), UInt8(n & 0xFF)]
        case ..<0x1000000: return [0x83, UInt8(n >> 16), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)]
        default: return [0x84, UInt8(n >> 24 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)]
        }
    }

    /// Parses exactly one object; trailing bytes are an error.
    public static func parse(_ bytes: [UInt8]) throws -> TLV {
        var offset = 0
        let tlv = try read(bytes, at: &offset)
        guard offset == bytes.count else { throw TLVError.trailingBytes(offset: offset) }
        return tlv
    }

    /// Parses a concatenation of objects (the value of a constructed object).
    public static func parseAll(_ bytes: [UInt8]) throws -> [TLV] {
        var offset = 0
        var out: [TLV] = []
        while offset < bytes.count {
            out.append(try read(bytes, at: &offset))
        }
        return out
    }

    /// Reads one object at `offset` and moves `offset` past it.
    public static func read(_ b: [UInt8], at offset: inout Int) throws -> TLV {
        let start = offset
        guard offset < b.count else { throw TLVError.truncated(offset: offset) }
        var tag = UInt32(b[offset])
        offset += 1
        if tag & 0x1F == 0x1F {
            var n = 0
            while true {
                guard offset < b.count else { throw TLVError.truncated(offset: offset) }
                let byte = b[offset]
                offset += 1
                n += 1
                guard n <= 3 else { throw TLVError.tagTooLong(offset: start) }
                tag = tag << 8 | UInt32(byte)
                if byte & 0x80 == 0 { break }
            }
        }
        guard offset < b.count else { throw TLVError.truncated(offset: offset) }
        let first = b[offset]
        offset += 1
        var length: Int
        if first < 0x80 {
            length = Int(first)
        } else if first == 0x80 {
            throw TLVError.indefiniteLength(offset: offset - 1)
        } else {
            let count = Int(first & 0x7F)
            guard count <= 4 else { throw TLVError.lengthTooLarge(offset: offset - 1) }
            guard offset + count <= b.count else { throw TLVError.truncated(offset: offset) }
            length = 0
            for i in 0..<count { length = length << 8 | Int(b[offset + i]) }
            offset += count
        }
        guard length <= b.count - offset else { throw TLVError.truncated(offset: offset) }
        let value = Array(b[offset..<(offset + length)])
        offset += length
        return TLV(tag: tag, value: value)
    }
}

/// Why bytes are not a BER-TLV object. Offsets count from the start of the parsed bytes.
public enum TLVError: Error, Equatable, Sendable, CustomStringConvertible {
    case truncated(offset: Int)
    case indefiniteLength(offset: Int)
    case lengthTooLarge(offset: Int)
    case tagTooLong(offset: Int)
    case trailingBytes(offset: Int)
    case unexpectedTag(expected: UInt32, found: UInt32)
    case missingTag(UInt32)

    public var description: String {
        switch self {
        case .truncated(let o): return "TLV data ends early (at byte \(o))"
        case .indefiniteLength(let o): return "indefinite TLV length at byte \(o) is not allowed"
        case .lengthTooLarge(let o): return "TLV length at byte \(o) is too large"
        case .tagTooLong(let o): return "TLV tag at byte \(o) is longer than 4 bytes"
        case .trailingBytes(let o): return "unexpected bytes after the TLV object (from byte \(o))"
        case .unexpectedTag(let e, let f): return "expected tag \(String(e, radix: 16)), found \(String(f, radix: 16))"
        case .missingTag(let t): return "data object with tag \(String(t, radix: 16)) is missing"
        }
    }
}

extension TLV {
    /// The total encoded length (header plus value) that the first TLV header in `bytes`
    /// announces, or nil when the header itself is incomplete or malformed.
    public static func declaredLength(_ b: [UInt8]) -> Int? {
        var o = 0
        guard o < b.count else { return nil }
        if b[o] & 0x1F == 0x1F {
            o += 1
            while o < b.count && b[o] & 0x80 != 0 { o += 1 }
        }
        o += 1
        guard o < b.count else { return nil }
        let first = b[o]
        o += 1
        if first < 0x80 { return o + Int(first) }
        let n = Int(first & 0x7F)
        guard n >= 1, n <= 3, o + n <= b.count else { return nil }
        var len = 0
        for i in 0..<n { len = len << 8 | Int(b[o + i]) }
        return o + n + len
    }
}
