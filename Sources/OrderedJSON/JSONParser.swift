/// How much `JSONValue(parsing:limits:)` accepts: it refuses longer or deeper text before it
/// builds anything large, so hostile input costs at most `maxBytes` of work and `maxDepth`
/// stack frames.
public struct JSONLimits: Equatable, Sendable {
    /// The longest text, in bytes.
    public var maxBytes: Int
    /// The deepest nesting of arrays and objects (a top-level object is depth 1).
    public var maxDepth: Int

    public init(maxBytes: Int = 1 << 20, maxDepth: Int = 32) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
    }
}

extension JSONValue {
    /// Parses one JSON text (RFC 8259) strictly: UTF-8 only (no byte order mark), only the
    /// four whitespace characters, nothing after the value, no duplicate member names, no lone
    /// surrogates, numbers in JSON's own form. Member order is kept.
    public init(parsing bytes: [UInt8], limits: JSONLimits = JSONLimits()) throws(JSONError) {
        guard bytes.count <= limits.maxBytes else { throw .tooLarge(limit: limits.maxBytes) }
        self = try bytes.withUnsafeBufferPointer { (buffer) throws(JSONError) -> JSONValue in
            var parser = JSONParser(bytes: buffer, maxDepth: limits.maxDepth, withheld: nil)
            return try parser.parseText()
        }
    }
}

/// A recursive-descent reader over the bytes (values withheld by `JSONValue+Withholding.swift`); recursion depth is bounded by `maxDepth`.
struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    let withheld: Withheld?
    var offset = 0
    var depth = 0

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int, withheld: Withheld?) {
        self.bytes = bytes
        self.maxDepth = maxDepth
        self.withheld = withheld
    }

    mutating func parseText() throws(JSONError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard offset == bytes.count else { throw .trailingData(offset: offset) }
        return value
    }

    var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { offset += 1 }
    }

    /// Steps over `byte`, or fails.
    private mutating func expect(_ byte: UInt8) throws(JSONError) {
        guard let found = current else { throw .unexpectedEnd }
        guard found == byte else { throw .unexpectedByte(offset: offset) }
        offset += 1
    }

    private mutating func parseValue() throws(JSONError) -> JSONValue {
        guard let byte = current else { throw .unexpectedEnd }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try parseLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try parseLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try parseLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw .unexpectedByte(offset: offset)
        }
    }

    private mutating func parseLiteral(_ literal: StaticString) throws(JSONError) {
        for i in 0..<literal.utf8CodeUnitCount {
            try expect(literal.utf8Start[i])
        }
    }

    /// Steps into an array or object, counting the depth against the limit.
    private mutating func enterContainer() throws(JSONError) {
        guard depth < maxDepth else { throw .tooDeep(limit: maxDepth, offset: offset) }
        depth += 1
        offset += 1
    }

    private mutating func parseArray() throws(JSONError) -> JSONValue {
        try enterContainer()
        var items: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            offset += 1
            depth -= 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            items.append(try parseValue())
            skipWhitespace()
            guard let byte = current else { throw .unexpectedEnd }
            offset += 1
            switch byte {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "]"):
                depth -= 1
                return .array(items)
            default: throw .unexpectedByte(offset: offset - 1)
            }
        }
    }

    private mutating func parseObject() throws(JSONError) -> JSONValue {
        try enterContainer()
        var members: [(String, JSONValue)] = []
        var names = Set<[UInt8]>()
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            offset += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            let nameOffset = offset
            guard let byte = current else { throw .unexpectedEnd }
            guard byte == UInt8(ascii: "\"") else { throw .unexpectedByte(offset: offset) }
            let name = try parseString()
            // Names compare by their bytes: two spellings of "é" are two names, as in JSON.
            guard names.insert(Array(name.utf8)).inserted else { throw .duplicateKey(offset: nameOffset) }
            skipWhitespace()
            try expect(UInt8(ascii: ":"))
            skipWhitespace()
            if depth == 1, let withheld, withheld.names.contains(name), current == UInt8(ascii: "\"") {
                try parseWithheldString(named: name, into: withheld)
            } else {
                members.append((name, try parseValue()))
            }
            skipWhitespace()
            guard let next = current else { throw .unexpectedEnd }
            offset += 1
            switch next {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "}"):
                depth -= 1
                return .object(members)
            default: throw .unexpectedByte(offset: offset - 1)
            }
        }
    }

    /// A string from its opening quote to its closing quote; escapes resolved, UTF-8 checked.
    private mutating func parseString() throws(JSONError) -> String {
        let start = offset
        var utf8 = StringBytes(buffer: nil)
        try parseStringBytes(into: &utf8)
        guard let string = String(validating: utf8.array, as: UTF8.self) else { throw .invalidUTF8(offset: start) }
        return string
    }

    /// The bytes of a string from its opening quote to its closing quote, escapes resolved.
    mutating func parseStringBytes(into utf8: inout StringBytes) throws(JSONError) {
        offset += 1
        while true {
            guard let byte = current else { throw .unexpectedEnd }
            switch byte {
            case UInt8(ascii: "\""):
                offset += 1
                return
            case UInt8(ascii: "\\"):
                try parseEscape(into: &utf8)
            case 0x00..<0x20:
                throw .unescapedControlCharacter(offset: offset)
            default:
                utf8.append(byte)
                offset += 1
            }
        }
    }

    private mutating func parseEscape(into utf8: inout StringBytes) throws(JSONError) {
        let start = offset
        offset += 1
        guard let byte = current else { throw .unexpectedEnd }
        offset += 1
        let simple: UInt8
        switch byte {
        case UInt8(ascii: "\""): simple = 0x22
        case UInt8(ascii: "\\"): simple = 0x5C
        case UInt8(ascii: "/"): simple = 0x2F
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"):
            var code = UInt32(try parseHex4(escapeOffset: start))
            if (0xDC00...0xDFFF).contains(code) { throw .unpairedSurrogate(offset: start) }
            if (0xD800...0xDBFF).contains(code) {
                // The low half must follow at once, as another \u escape.
                guard current == UInt8(ascii: "\\"), offset + 1 < bytes.count, bytes[offset + 1] == UInt8(ascii: "u")
                else { throw .unpairedSurrogate(offset: start) }
                let lowStart = offset
                offset += 2
                let low = UInt32(try parseHex4(escapeOffset: lowStart))
                guard (0xDC00...0xDFFF).contains(low) else { throw .unpairedSurrogate(offset: start) }
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            }
            // Every code point outside the surrogates is a scalar.
            for byte in Unicode.Scalar(code)!.utf8 { utf8.append(byte) }
            return
        default: throw .invalidEscape(offset: start)
        }
        utf8.append(simple)
    }

    /// The four hexadecimal digits after `\u`.
    private mutating func parseHex4(escapeOffset: Int) throws(JSONError) -> UInt16 {
        guard offset + 4 <= bytes.count else { throw .unexpectedEnd }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw .invalidEscape(offset: escapeOffset)
            }
            value = value << 4 | UInt16(digit)
            offset += 1
        }
        return value
    }

    /// number = [ "-" ] ( "0" / 1-9 *DIGIT ) [ "." 1*DIGIT ] [ ( "e" / "E" ) [ "-" / "+" ] 1*DIGIT ]
    private mutating func parseNumber() throws(JSONError) -> JSONValue {
        let start = offset
        if current == UInt8(ascii: "-") { offset += 1 }
        guard let first = current, isDigit(first) else { throw .invalidNumber(offset: start) }
        offset += 1
        if first == UInt8(ascii: "0") {
            if let next = current, isDigit(next) { throw .invalidNumber(offset: start) }
        } else {
            skipDigits()
        }
        var integral = true
        if current == UInt8(ascii: ".") {
            integral = false
            offset += 1
            guard let digit = current, isDigit(digit) else { throw .invalidNumber(offset: start) }
            skipDigits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            integral = false
            offset += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { offset += 1 }
            guard let digit = current, isDigit(digit) else { throw .invalidNumber(offset: start) }
            skipDigits()
        }
        let literal = String(decoding: bytes[start..<offset], as: UTF8.self)
        if integral, let integer = Int(literal) { return .integer(integer) }
        guard let double = Double(literal), double.isFinite else { throw .numberOutOfRange(offset: start) }
        return .number(double)
    }

    private func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private mutating func skipDigits() {
        while let byte = current, isDigit(byte) { offset += 1 }
    }
}
