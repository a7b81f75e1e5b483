import Testing

@testable import SmartCard

@Suite struct CommandAPDUTests {
    @Test func case1() throws {
        #expect(try CommandAPDU(ins: 0x84, p1: 0, p2: 0).bytes == [0x00, 0x84, 0x00, 0x00])
    }

    @Test func shortCases() throws {
        #expect(try CommandAPDU(ins: 0x84, p1: 0, p2: 0, ne: 8).bytes.hexString == "0084000008")
        #expect(try CommandAPDU(ins: 0xB0, p1: 0x9C, p2: 0, ne: 256).bytes.hexString == "00b09c0000")
        #expect(try CommandAPDU.selectFile(0x011C).bytes.hexString == "00a4020c02011c")
        #expect(
            try CommandAPDU(cla: 0x10, ins: 0x86, p1: 0, p2: 0, data: [0x7C, 0x00], ne: 256).bytes.hexString
                == "10860000027c0000")
    }

    @Test func extendedCases() throws {
        #expect(try CommandAPDU(ins: 0xB0, p1: 0x9D, p2: 0, ne: 65536).bytes.hexString == "00b09d00000000")
        #expect(try CommandAPDU(ins: 0xB0, p1: 0x9D, p2: 0, ne: 1000).bytes.hexString == "00b09d000003e8")
        let data = [UInt8](repeating: 0xAB, count: 300)
        let c3 = try CommandAPDU(ins: 0x2A, p1: 0, p2: 0xBE, data: data)
        #expect(Array(c3.bytes.prefix(7)) == [0x00, 0x2A, 0x00, 0xBE, 0x00, 0x01, 0x2C])
        #expect(c3.bytes.count == 7 + 300)
        let c4 = try CommandAPDU(ins: 0x2A, p1: 0, p2: 0xBE, data: data, ne: 65536)
        #expect(Array(c4.bytes.suffix(2)) == [0x00, 0x00])
        #expect(c4.bytes.count == 7 + 300 + 2)
    }

    @Test(arguments: [
        "00840000", "0084000008", "00b09c0000", "00a4020c02011c", "10860000027c0000",
        "00b09d00000000", "00b09d000003e8", "0022c1a40f800a04007f00070202040202830101",
    ])
    func parseRoundTrip(hex: String) throws {
        let bytes = [UInt8](hex: hex)!
        #expect(try CommandAPDU(bytes: bytes).bytes == bytes)
    }

    @Test(arguments: ["", "00a4", "00a4020c05011c", "00a4020c02011c0000", "00b000000000", "00b0000000000511"])
    func malformedCommandsAreRejected(hex: String) {
        #expect(throws: CardError.self) { try CommandAPDU(bytes: [UInt8](hex: hex)!) }
    }

    /// Data longer than an extended Lc counts, or an Ne outside 1...65536, throws: a length that
    /// came from outside (a server's signature) ends the operation instead of the program.
    @Test func unencodableCommandsThrow() throws {
        #expect(throws: CommandAPDUError.dataTooLong(count: 65536)) {
            try CommandAPDU(ins: 0x82, p1: 0, p2: 0, data: [UInt8](repeating: 0, count: 65536))
        }
        #expect(throws: CommandAPDUError.expectedLengthOutOfRange(0)) {
            try CommandAPDU(ins: 0xB0, p1: 0, p2: 0, ne: 0)
        }
        #expect(throws: CommandAPDUError.expectedLengthOutOfRange(65537)) {
            try CommandAPDU(ins: 0xB0, p1: 0, p2: 0, ne: 65537)
        }
        let largest = try CommandAPDU(ins: 0x82, p1: 0, p2: 0, data: [UInt8](repeating: 1, count: 65535), ne: 65536)
        #expect(largest.bytes.count == 4 + 3 + 65535 + 2)
    }

    @Test func zeroDataKeepsTheLength() throws {
        var command = try CommandAPDU(ins: 0x2C, p1: 0x02, p2: 0x03, data: Array("123456".utf8))
        command.zeroData()
        #expect(command.data == [0, 0, 0, 0, 0, 0])
    }

    @Test func responseParsing() throws {
        let r = try ResponseAPDU(bytes: [0x01, 0x02, 0x63, 0xC2])
        #expect(r.data == [1, 2])
        #expect(r.statusWord.retryCounter == 2)
        #expect(!r.isSuccess)
        #expect(throws: CardError.self) { try ResponseAPDU(bytes: [0x90]) }
        #expect(StatusWord.success.description == "9000 (success)")
        #expect(StatusWord(rawValue: 0x63C1).description == "63C1 (1 attempt left)")
    }

    @Test func hex() {
        #expect([UInt8](hex: "0a FF") == [0x0A, 0xFF])
        #expect([UInt8](hex: "abc") == nil)
        #expect([UInt8](hex: "zz") == nil)
    }
}
