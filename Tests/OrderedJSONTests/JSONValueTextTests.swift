import OrderedJSON
import Testing

@Suite struct JSONValueTextTests {
    @Test func compactInMemberOrder() {
        let value = JSONValue.object([
            ("msg", .string("X")), ("b", .bool(false)), ("n", .null), ("i", .integer(-3)),
            ("a", .array([.integer(1), .object([])])), ("d", .number(2.5)),
        ])
        #expect(value.text == #"{"msg":"X","b":false,"n":null,"i":-3,"a":[1,{}],"d":2.5}"#)
    }

    @Test func stringEscapes() {
        let value = JSONValue.string("q\" b\\ n\n r\r t\t bell\u{07} esc\u{1B} nul\u{0} del\u{7F} / ü 😀 \u{2028}")
        #expect(value.text == #""q\" b\\ n\n r\r t\t bell\u0007 esc\u001b nul\u0000 del\#u{7F} / ü 😀 \#u{2028}""#)
    }

    @Test func numbersAreJSONNumbers() {
        #expect(JSONValue.number(1e20).text == "1e+20")
        #expect(JSONValue.number(1e-7).text == "1e-07")
        #expect(JSONValue.number(3).text == "3.0")
        #expect(JSONValue.number(.infinity).text == "null")
        #expect(JSONValue.number(.nan).text == "null")
        #expect(JSONValue.integer(Int.min).text == "-9223372036854775808")
    }

    @Test(arguments: [
        #"{"msg":"READER","name":"R \"1\"","attached":true,"card":{"retryCounter":3},"x":[null,-0.5,1e+20]}"#,
        #"["\u0000\u001f",{},[],"",0,-1]"#,
    ])
    func parsedTextPrintsBackAsItself(text: String) throws {
        let value = try JSONValue(parsing: Array(text.utf8))
        #expect(value.text == text)
    }

    @Test func otherSpellingsPrintInTheirOneForm() throws {
        let value = try JSONValue(parsing: Array(#" { "a" : "\/\u0041\b" , "n" : 1E2 } "#.utf8))
        #expect(value.text == #"{"a":"/A\u0008","n":100.0}"#)
        #expect(try JSONValue(parsing: Array(value.text.utf8)) == value)
    }
}
