#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Secrets in JSON (the SDK's SET_PIN, SET_CAN, SET_PUK, SET_NEW_PIN "value"): read without
// ever becoming a Swift `String`, which is immutable and cannot be wiped.

extension JSONValue {
    /// Parses like `init(parsing:limits:)`, except that the string value of a member of the
    /// top-level object named in `names` never becomes a `String` (which could not be wiped): its
    /// bytes, escapes resolved and UTF-8 checked, are decoded into `scratch`, lent to `receive`
    /// with the member's name, and zeroed; the member is left out of the value. A member of
    /// another type stays in the value. `scratch` must be at least as long as `bytes` (no decoded
    /// string is longer than its text); the caller zeroes nothing else: the parser keeps no copy.
    public init(
        parsing bytes: UnsafeBufferPointer<UInt8>, limits: JSONLimits = JSONLimits(), withholding names: Set<String>,
        scratch: UnsafeMutableBufferPointer<UInt8>, receive: (String, UnsafeMutableBufferPointer<UInt8>) -> Void
    ) throws(JSONError) {
        guard bytes.count <= limits.maxBytes else { throw .tooLarge(limit: limits.maxBytes) }
        guard scratch.count >= bytes.count else { throw .tooLarge(limit: scratch.count) }
        self = try withoutActuallyEscaping(receive) { (receive) throws(JSONError) -> JSONValue in
            var parser = JSONParser(
                bytes: bytes, maxDepth: limits.maxDepth,
                withheld: JSONParser.Withheld(names: names, scratch: scratch, receive: receive))
            return try parser.parseText()
        }
    }
}

extension JSONParser {
    /// Where the values of withheld members go (see `init(parsing:limits:withholding:scratch:receive:)`).
    struct Withheld {
        let names: Set<String>
        let scratch: UnsafeMutableBufferPointer<UInt8>
        let receive: (String, UnsafeMutableBufferPointer<UInt8>) -> Void
    }

    /// A withheld member's string, decoded into the scratch buffer, lent to the receiver and zeroed.
    mutating func parseWithheldString(named name: String, into withheld: Withheld) throws(JSONError) {
        let start = offset
        var utf8 = StringBytes(buffer: withheld.scratch)
        defer { if let base = withheld.scratch.baseAddress { explicit_bzero(base, utf8.count) } }
        try parseStringBytes(into: &utf8)
        let decoded = UnsafeMutableBufferPointer(rebasing: withheld.scratch[0..<utf8.count])
        guard Self.isValidUTF8(UnsafeBufferPointer(decoded)) else { throw .invalidUTF8(offset: start) }
        withheld.receive(name, decoded)
    }

    /// Whether the bytes are well-formed UTF-8, checked without making a string of them.
    static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }
}

/// A decoded string's bytes: in an array, or in a caller's buffer (a withheld value) that is
/// long enough by construction (no decoded string is longer than the text it came from).
struct StringBytes {
    let buffer: UnsafeMutableBufferPointer<UInt8>?
    var array: [UInt8] = []
    var count = 0

    init(buffer: UnsafeMutableBufferPointer<UInt8>?) { self.buffer = buffer }

    mutating func append(_ byte: UInt8) {
        if let buffer {
            buffer[count] = byte
        } else {
            array.append(byte)
        }
        count += 1
    }
}
