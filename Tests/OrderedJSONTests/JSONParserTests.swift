import OrderedJSON
import Testing

func parse(_ text: String, limits: JSONLimits = JSONLimits()) throws(JSONError) -> JSONValue {
    try JSONValue(parsing: Array(text.utf8), limits: limits)
}

func error(_ bytes: [UInt8], limits: JSONLimits = JSONLimits()) -> JSONError? {
    do {
        _ = try JSONValue(parsing: bytes, limits: limits)
        return nil
    } catch {
        return error
    }
}

func error(_ text: String, limits: JSONLimits = JSONLimits()) -> JSONError? { error(Array(text.utf8), limits: limits) }

@Suite struct JSONParserTests {
    @Test func objectsKeepTheirMemberOrder() throws {
        let value = try parse(#"{"z":1,"a":[true,false,null],"m":{"y":"x","b":{}}}"#)
        #expect(
            value
                == .object([
                    ("z", .integer(1)),
                    ("a", .array([.bool(true), .bool(false), .null])),
                    ("m", .object([("y", .string("x")), ("b", .object([]))])),
                ]))
        #expect(value["a"] == .array([.bool(true), .bool(false), .null]))
        #expect(value["missing"] == nil)
        #expect(try parse(#"{"v":null}"#)["v"] == .null)
    }

    @Test func anyValueMayStandAlone() throws {
        #expect(try parse("null") == .null)
        #expect(try parse(#""s""#) == .string("s"))
        #expect(try parse("-12") == .integer(-12))
        #expect(try parse("[]") == .array([]))
    }

    @Test func whitespaceIsTheFourCharactersOnly() throws {
        #expect(
            try parse(" \t\r\n{ \"a\" :\n[ 1 , 2 ] }\r\n ") == .object([("a", .array([.integer(1), .integer(2)]))]))
        for space: UInt8 in [0x0C, 0x0B, 0xA0] {
            #expect(error([space] + Array("1".utf8)) == .unexpectedByte(offset: 0))
        }
        // A byte order mark is not whitespace.
        #expect(error([0xEF, 0xBB, 0xBF] + Array("{}".utf8)) == .unexpectedByte(offset: 0))
    }

    @Test(arguments: [
        ("0", JSONValue.integer(0)), ("-0", .integer(0)), ("123", .integer(123)), ("-45", .integer(-45)),
        ("9223372036854775807", .integer(Int.max)), ("-9223372036854775808", .integer(Int.min)),
        ("9223372036854775808", .number(9_223_372_036_854_775_808)), ("1.5", .number(1.5)), ("-0.25", .number(-0.25)),
        ("1e3", .number(1000)), ("1E+3", .number(1000)), ("25e-1", .number(2.5)), ("3.0", .number(3)),
        ("1e400", nil),
    ])
    func numbers(text: String, expected: JSONValue?) {
        if let expected {
            #expect((try? parse(text)) == expected, "\(text)")
        } else {
            #expect(error(text) == .numberOutOfRange(offset: 0))
        }
    }

    @Test(arguments: [
        ("01", JSONError.invalidNumber(offset: 0)), ("-01", .invalidNumber(offset: 0)),
        ("-", .invalidNumber(offset: 0)),
        ("-a", .invalidNumber(offset: 0)), ("1.", .invalidNumber(offset: 0)), ("1.e3", .invalidNumber(offset: 0)),
        ("1e", .invalidNumber(offset: 0)), ("1e+", .invalidNumber(offset: 0)), ("[2E-]", .invalidNumber(offset: 1)),
        (".5", .unexpectedByte(offset: 0)), ("+1", .unexpectedByte(offset: 0)), ("0x10", .trailingData(offset: 1)),
    ])
    func numbersNotWrittenAsJSONAllows(text: String, expected: JSONError) {
        #expect(error(text) == expected)
    }

    @Test func numbersThatAreNotNumbers() {
        #expect(error("NaN") == .unexpectedByte(offset: 0))
        #expect(error("Infinity") == .unexpectedByte(offset: 0))
        #expect(error("[1,2,]") == .unexpectedByte(offset: 5))
    }

    @Test func escapes() throws {
        #expect(try parse(#""\" \\ \/ \b \f \n \r \t""#) == .string("\" \\ / \u{08} \u{0C} \n \r \t"))
        #expect(try parse(#""\u0041\u00e9\u20AC\u0000""#) == .string("Aé€\u{0}"))
        #expect(error(#""\x""#) == .invalidEscape(offset: 1))
        #expect(error(#""ab\'""#) == .invalidEscape(offset: 3))
        #expect(error(#""\u12G4""#) == .invalidEscape(offset: 1))
        #expect(error(#""\u12""#) == .unexpectedEnd)
    }

    @Test func surrogatePairsMakeOneScalarAndLoneHalvesAreRefused() throws {
        #expect(try parse(#""\ud83d\ude00""#) == .string("😀"))
        #expect(try parse(#""\uD834\uDD1E""#) == .string("\u{1D11E}"))
        #expect(error(#""\ud800""#) == .unpairedSurrogate(offset: 1))
        #expect(error(#""\ud800x""#) == .unpairedSurrogate(offset: 1))
        #expect(error(#""\ud800\u0041""#) == .unpairedSurrogate(offset: 1))
        #expect(error(#""\ud800\ud800""#) == .unpairedSurrogate(offset: 1))
        #expect(error(#""a\udc00""#) == .unpairedSurrogate(offset: 2))
    }

    @Test func stringsAreUTF8WithoutRawControlCharacters() throws {
        #expect(try parse("\"grüße 😀\"") == .string("grüße 😀"))
        let quote = UInt8(ascii: "\"")
        for bad: [UInt8] in [
            [0xFF], [0xC3], [0xC0, 0x80],  // not UTF-8, cut short, overlong
            [0xED, 0xA0, 0x80],  // a surrogate written as UTF-8
            [0xF4, 0x90, 0x80, 0x80],  // beyond U+10FFFF
        ] {
            #expect(error([quote, 0x61] + bad + [quote]) == .invalidUTF8(offset: 0), "\(bad)")
        }
        #expect(error([quote, 0x61, 0x0A, quote]) == .unescapedControlCharacter(offset: 2))
        #expect(error([quote, 0x1F, quote]) == .unescapedControlCharacter(offset: 1))
        // Outside a string a byte above 0x7F is just a wrong byte.
        #expect(error([0xC3, 0xA4]) == .unexpectedByte(offset: 0))
    }

    @Test func duplicateNamesAreRefusedAtAnyDepth() throws {
        #expect(error(#"{"a":1,"b":2,"a":3}"#) == .duplicateKey(offset: 13))
        #expect(error(#"{"o":{"k":1,"\u006b":2}}"#) == .duplicateKey(offset: 12))
        // The same name in two objects is no duplicate; names compare by their bytes.
        #expect(
            try parse(#"[{"a":1},{"a":2}]"#) == .array([.object([("a", .integer(1))]), .object([("a", .integer(2))])]))
        #expect(throws: Never.self) { try parse("{\"\u{E9}\":1,\"e\u{301}\":2}") }
    }

    @Test func onlyWhitespaceMayFollowTheValue() {
        #expect(error("{} x") == .trailingData(offset: 3))
        #expect(error("{}{}") == .trailingData(offset: 2))
        #expect(error("1 2") == .trailingData(offset: 2))
        #expect(error([UInt8(ascii: "1"), 0x00]) == .trailingData(offset: 1))
    }

    @Test func brokenStructure() {
        #expect(error("") == .unexpectedEnd)
        #expect(error("   ") == .unexpectedEnd)
        #expect(error("{") == .unexpectedEnd)
        #expect(error(#"{"a""#) == .unexpectedEnd)
        #expect(error(#"{"a":"#) == .unexpectedEnd)
        #expect(error(#"{"a":1"#) == .unexpectedEnd)
        #expect(error(#""abc"#) == .unexpectedEnd)
        #expect(error("[1") == .unexpectedEnd)
        #expect(error("{a:1}") == .unexpectedByte(offset: 1))
        #expect(error("{'a':1}") == .unexpectedByte(offset: 1))
        #expect(error(#"{"a" 1}"#) == .unexpectedByte(offset: 5))
        #expect(error(#"{"a":1,}"#) == .unexpectedByte(offset: 7))
        #expect(error(#"{"a":1 "b":2}"#) == .unexpectedByte(offset: 7))
        #expect(error("[1 2]") == .unexpectedByte(offset: 3))
        #expect(error("tru") == .unexpectedEnd)
        #expect(error("nul1") == .unexpectedByte(offset: 3))
        #expect(error("True") == .unexpectedByte(offset: 0))
        #expect(error("/* c */ 1") == .unexpectedByte(offset: 0))
    }

    @Test func nestingIsBounded() throws {
        let limits = JSONLimits(maxDepth: 4)
        #expect(try parse("[[[[1]]]]", limits: limits) == .array([.array([.array([.array([.integer(1)])])])]))
        #expect(error("[[[[[1]]]]]", limits: limits) == .tooDeep(limit: 4, offset: 4))
        #expect(error(#"{"a":{"b":[{"c":[]}]}}"#, limits: limits) == .tooDeep(limit: 4, offset: 16))
        // Siblings do not add up: depth is nesting, not count.
        #expect(throws: Never.self) { try parse("[[],[],[[]],[[]]]", limits: limits) }
        // The default bound refuses a deep text long before the stack could run out.
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(error(deep) == .tooDeep(limit: JSONLimits().maxDepth, offset: JSONLimits().maxDepth))
    }

    @Test func sizeIsBounded() throws {
        let limits = JSONLimits(maxBytes: 8)
        #expect(try parse(#""123456""#, limits: limits) == .string("123456"))
        #expect(error(#""1234567""#, limits: limits) == .tooLarge(limit: 8))
    }

    @Test func errorsNeverQuoteTheText() {
        let secret = "918273"
        let texts = [
            #"{"cmd":"SET_PIN","value":"918273"#, #"{"value":918273x}"#, #"{"value":"918273\q"}"#,
            #"{"value":"918273","value":"918273"}"#, #"{"value":"\ud800918273"}"#, "918273 918273",
            #"{"value":0918273}"#, "[[[918273]]]",
        ]
        for text in texts {
            guard let found = error(text, limits: JSONLimits(maxDepth: 2)) else {
                Issue.record("accepted \(text)")
                continue
            }
            #expect(!found.description.contains(secret) && !found.description.contains("9182"), "\(found)")
        }
        #expect(!(error(Array((#""918273"#).utf8) + [0xFF, 0x22]))!.description.contains(secret))
    }
}
