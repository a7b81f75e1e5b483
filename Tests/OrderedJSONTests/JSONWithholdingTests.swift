import OrderedJSON
import Testing

/// Withheld members (issue 15): a secret's string never becomes a String; its bytes are lent to
/// the receiver from the caller's scratch buffer and zeroed there.
@Suite struct JSONWithholdingTests {
    func parse(_ text: String, scratchSize: Int? = nil) throws(JSONError) -> (
        JSONValue, received: [(String, [UInt8])], scratch: [UInt8]
    ) {
        let bytes = Array(text.utf8)
        let scratch = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: scratchSize ?? bytes.count)
        scratch.initialize(repeating: 0xAA)
        defer { scratch.deallocate() }
        var received: [(String, [UInt8])] = []
        let value = try bytes.withUnsafeBufferPointer { (buffer) throws(JSONError) -> JSONValue in
            try JSONValue(parsing: buffer, withholding: ["value"], scratch: scratch) { name, bytes in
                received.append((name, Array(bytes)))
            }
        }
        return (value, received, Array(scratch))
    }

    @Test func theStringGoesToTheReceiverNotIntoTheValue() throws {
        let (value, received, scratch) = try parse(#"{"cmd":"SET_PIN","value":"12\u00343456","n":{"value":"x"}}"#)
        #expect(value == .object([("cmd", .string("SET_PIN")), ("n", .object([("value", .string("x"))]))]))
        #expect(received.count == 1)
        #expect(received.first?.0 == "value")
        #expect(received.first?.1 == Array("1243456".utf8))
        #expect(scratch.prefix(7).allSatisfy { $0 == 0 }, "the decoded bytes are zeroed in the scratch buffer")
    }

    @Test func anotherTypeStaysInTheValue() throws {
        let (value, received, _) = try parse(#"{"value":12}"#)
        #expect(value == .object([("value", .integer(12))]))
        #expect(received.isEmpty)
    }

    @Test func theRulesStayStrict() {
        #expect(throws: JSONError.self) { try parse(#"{"value":"1","value":"2"}"#) }
        #expect(throws: JSONError.self) { try parse(#"{"value":"1\u0"}"#) }
        #expect(throws: JSONError.self) { try parse(#"{"value":"12"}x"#) }
        #expect(throws: JSONError.tooLarge(limit: 4)) { try parse(#"{"value":"12"}"#, scratchSize: 4) }
    }
}
