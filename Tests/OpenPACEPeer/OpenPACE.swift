import COpenPACE

/// Thin Swift access to OpenPACE's C API for the peer tests: one-time initialisation, BUF_MEM
/// in and out, and a small BER-TLV codec of its own so that the OpenPACE side builds and reads
/// the card's data objects without eid's TLV code.
public enum OpenPACE {
    /// OpenPACE registers its object identifiers (the PACE NIDs) once per process.
    private static let initialized: Bool = {
        EAC_init()
        return true
    }()

    public static func initialize() { _ = initialized }

    /// A failure inside OpenPACE (a NULL or 0 return). Carries the function's name only.
    public struct Failure: Error, CustomStringConvertible {
        public let function: String
        public var description: String { "OpenPACE: \(function) failed" }

        public init(function: String) { self.function = function }
    }

    /// Copies a BUF_MEM that the caller owns and frees (and wipes) it; nil when `buffer` is nil.
    public static func take(_ buffer: UnsafeMutablePointer<BUF_MEM>?) -> [UInt8]? {
        guard let buffer else { return nil }
        defer { BUF_MEM_clear_free(buffer) }
        return copy(buffer)
    }

    /// KSenc and KSmac of a PACE context, nil before they are derived (step 3C).
    public static func sessionKeys(_ ctx: UnsafeMutablePointer<EAC_CTX>) -> (encryption: [UInt8], mac: [UInt8])? {
        guard let enc = copy(eid_pace_k_enc(ctx)), let mac = copy(eid_pace_k_mac(ctx)), !enc.isEmpty, !mac.isEmpty
        else { return nil }
        return (enc, mac)
    }

    /// Copies a BUF_MEM that stays owned by OpenPACE.
    public static func copy(_ buffer: UnsafePointer<BUF_MEM>?) -> [UInt8]? {
        guard let buffer else { return nil }
        let count = eid_buf_length(buffer)
        guard count > 0, let data = eid_buf_data(buffer) else { return count == 0 ? [] : nil }
        return Array(UnsafeBufferPointer(start: data, count: count))
    }

    /// Runs `body` with a temporary BUF_MEM holding `bytes` (wiped and freed afterwards).
    public static func withBuffer<T>(_ bytes: [UInt8], _ body: (UnsafeMutablePointer<BUF_MEM>) throws -> T) throws -> T
    {
        let made = bytes.withUnsafeBufferPointer { eid_buf_new($0.baseAddress, $0.count) }
        guard let buffer = made else { throw Failure(function: "BUF_MEM_new") }
        defer { BUF_MEM_clear_free(buffer) }
        return try body(buffer)
    }

    /// The DER content bytes of the object identifier OpenPACE knows as `nid` (nil if none).
    public static func objectIdentifierContent(nid: Int32) -> [UInt8]? {
        guard let object = EAC_OBJ_nid2obj(nid) else { return nil }
        let count = Int(OBJ_length(object))
        guard count > 0, let data = OBJ_get0_data(object) else { return nil }
        return Array(UnsafeBufferPointer(start: data, count: count))
    }
}

/// A minimal BER-TLV for the peer card: tags of one or two bytes, definite lengths up to
/// three length bytes. Independent of eid's `TLV` on purpose.
public struct PeerTLV: Equatable {
    public var tag: UInt32
    public var value: [UInt8]

    public init(tag: UInt32, value: [UInt8]) {
        self.tag = tag
        self.value = value
    }

    public var encoded: [UInt8] {
        let tagBytes: [UInt8] = tag > 0xFF ? [UInt8(tag >> 8), UInt8(tag & 0xFF)] : [UInt8(tag)]
        let n = value.count
        let length: [UInt8]
        switch n {
        case ..<0x80: length = [UInt8(n)]
        case ..<0x100: length = [0x81, UInt8(n)]
        case ..<0x10000: length = [0x82, UInt8(n >> 8), UInt8(n & 0xFF)]
        default: length = [0x83, UInt8(n >> 16), UInt8((n >> 8) & 0xFF), UInt8(n & 0xFF)]
        }
        return tagBytes + length + value
    }

    public struct Malformed: Error {
        public init() {}
    }

    /// All objects in `bytes`, which they must fill exactly.
    public static func parseAll(_ bytes: [UInt8]) throws -> [PeerTLV] {
        var objects: [PeerTLV] = []
        var i = 0
        func next() throws -> UInt8 {
            guard i < bytes.count else { throw Malformed() }
            defer { i += 1 }
            return bytes[i]
        }
        while i < bytes.count {
            var tag = UInt32(try next())
            if tag & 0x1F == 0x1F { tag = tag << 8 | UInt32(try next()) }
            var length = Int(try next())
            if length & 0x80 != 0 {
                let count = length & 0x7F
                guard (1...3).contains(count) else { throw Malformed() }
                length = 0
                for _ in 0..<count { length = length << 8 | Int(try next()) }
            }
            guard length <= bytes.count - i else { throw Malformed() }
            objects.append(PeerTLV(tag: tag, value: Array(bytes[i..<i + length])))
            i += length
        }
        return objects
    }
}
