import Testing

@testable import SmartCard

@Suite struct TLVTests {
    @Test func multiByteTagsAndLongLengths() throws {
        let value = [UInt8](repeating: 0x55, count: 300)
        let tlv = TLV(tag: 0x7F49, value: value)
        #expect(Array(tlv.bytes.prefix(5)) == [0x7F, 0x49, 0x82, 0x01, 0x2C])
        #expect(try TLV.parse(tlv.bytes) == tlv)
        #expect(TLV(tag: 0x5F29, value: [0]).bytes == [0x5F, 0x29, 0x01, 0x00])
        #expect(TLV(tag: 0x80, value: Array(repeating: 0, count: 200)).bytes.prefix(3) == [0x80, 0x81, 0xC8])
    }

    @Test func constructedChildren() throws {
        let tlv = try TLV.parse([UInt8](hex: "7c0a8508c2b0bd78d94ba866")!)
        #expect(tlv.isConstructed)
        let inner = try #require(try tlv.child(0x85))
        #expect(inner.value.hexString == "c2b0bd78d94ba866")
    }

    @Test(arguments: [
        ("", TLVError.truncated(offset: 0)),
        ("80", TLVError.truncated(offset: 1)),
        ("8003aabb", TLVError.truncated(offset: 2)),
        ("8080", TLVError.indefiniteLength(offset: 1)),
        ("8085aabbccddee", TLVError.lengthTooLarge(offset: 1)),
        ("7f", TLVError.truncated(offset: 1)),
        ("9fffffff0100", TLVError.tagTooLong(offset: 0)),
        ("800100ff", TLVError.trailingBytes(offset: 3)),
        ("8182ffff00", TLVError.truncated(offset: 4)),
    ])
    func malformedInputIsAnError(hex: String, expected: TLVError) {
        #expect(throws: expected) { try TLV.parse([UInt8](hex: hex)!) }
    }

    @Test func declaredLength() {
        #expect(TLV.declaredLength([0x31, 0x14]) == 22)
        #expect(TLV.declaredLength([0x30, 0x82, 0x07, 0xE7]) == 4 + 0x7E7)
        #expect(TLV.declaredLength([0x30]) == nil)
    }
}
