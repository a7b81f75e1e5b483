import SmartCard
import Testing

@testable import SDK

/// SET_PIN, SET_CAN, SET_PUK, SET_NEW_PIN (issue 15): the secret goes from the input line into a
/// `Secret` and the line is zeroed; the digits are never a Swift String.
@Suite struct SDKSecretDecodingTests {
    /// The line as the reader holds it: in a buffer of its own, parsed in place.
    func decode(_ text: String) -> (SDKCommand.Parsed, [UInt8]) {
        let line = LockedBuffer(count: text.utf8.count)
        for (i, byte) in text.utf8.enumerated() { line.bytes[i] = byte }
        let parsed = SDKCommand.parse(wiping: line.bytes)
        return (parsed, Array(line.bytes))
    }

    @Test(arguments: [
        (#"{"cmd":"SET_PIN","value":"123456"}"#, SecretKind.pin, "123456"),
        (#"{"value":"  0815\u0037","cmd":"SET_CAN"}"#, SecretKind.can, "  08157"),
        (#"{"cmd":"SET_PUK","value":"1234567890"}"#, SecretKind.puk, "1234567890"),
        (#"{"cmd":"SET_NEW_PIN","value":"654321"}"#, SecretKind.newPIN, "654321"),
    ])
    func theSecretArrivesAndTheLineIsZeroed(line: String, kind: SecretKind, digits: String) throws {
        let (parsed, after) = decode(line)
        #expect(after.allSatisfy { $0 == 0 }, "the input line is wiped")
        guard case .command(.setSecret(let k, let value)) = parsed else {
            Issue.record("not a SET_* command")
            return
        }
        #expect(k == kind)
        let secret = try #require(value)
        #expect(secret.withBytes { $0 } == Array(digits.utf8))
    }

    @Test func aBrokenOrForeignLineIsZeroedToo() {
        for line in [#"{"cmd":"SET_PIN","value":"123456""#, #"{"cmd":"GET_INFO","value":"123456"}"#, "123456"] {
            let (_, after) = decode(line)
            #expect(after.allSatisfy { $0 == 0 })
        }
    }

    @Test func aValueThatIsNoStringGivesNoSecret() {
        let (parsed, _) = decode(#"{"cmd":"SET_PIN","value":123456}"#)
        guard case .command(.setSecret(.pin, nil)) = parsed else {
            Issue.record("a number is no PIN")
            return
        }
    }

    @Test func invalidUTF8InTheValueIsInvalidJSON() {
        var bytes = Array(#"{"cmd":"SET_PIN","value":"12"#.utf8)
        bytes += [0xC3, 0x28]
        bytes += Array(#""}"#.utf8)
        let line = LockedBuffer(count: bytes.count)
        for (i, byte) in bytes.enumerated() { line.bytes[i] = byte }
        guard case .rejected(.invalid) = SDKCommand.parse(wiping: line.bytes) else {
            Issue.record("should be INVALID")
            return
        }
        #expect(line.bytes.allSatisfy { $0 == 0 })
    }
}
