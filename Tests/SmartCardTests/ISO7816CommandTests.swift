import Testing

@testable import SmartCard

/// The ISO/IEC 7816-4 builders, byte for byte.
@Suite struct ISO7816CommandTests {
    @Test func selectCommands() throws {
        #expect(try CommandAPDU.selectFile(0x011C).bytes.hexString == "00a4020c02011c")
        #expect(try CommandAPDU.selectMasterFile.bytes.hexString == "00a4000c023f00")
        #expect(
            try CommandAPDU.selectApplication(EIDFile.eIDApplicationID).bytes.hexString
                == "00a4040c09e80704007f00070302")
    }

    @Test func readBinaryCommands() throws {
        #expect(try CommandAPDU.readBinary(shortFileID: EIDFile.cardAccessShortID).bytes.hexString == "00b09c0000")
        #expect(try CommandAPDU.readBinary(shortFileID: 0x1D, offset: 0x10, ne: 16).bytes.hexString == "00b09d1010")
        #expect(
            try CommandAPDU.readBinary(shortFileID: 0x1C, ne: CommandAPDU.maxExtendedNe).bytes.hexString
                == "00b09c00000000")
        #expect(try CommandAPDU.readBinary(offset: 0x0123, ne: 200).bytes.hexString == "00b00123c8")
    }

    @Test func getChallenge() throws {
        #expect(try CommandAPDU.getChallenge().bytes.hexString == "0084000008")
    }

    /// A parameter no READ BINARY carries is an error, not a stop of the program.
    @Test func readBinaryOutOfRangeThrows() {
        #expect(throws: CommandAPDUError.shortFileIDOutOfRange(0)) { try CommandAPDU.readBinary(shortFileID: 0) }
        #expect(throws: CommandAPDUError.shortFileIDOutOfRange(31)) { try CommandAPDU.readBinary(shortFileID: 31) }
        #expect(throws: CommandAPDUError.offsetOutOfRange(0x8000)) { try CommandAPDU.readBinary(offset: 0x8000) }
        #expect(throws: CommandAPDUError.offsetOutOfRange(-1)) { try CommandAPDU.readBinary(offset: -1) }
        #expect(throws: CommandAPDUError.expectedLengthOutOfRange(0)) { try CommandAPDU.getChallenge(0) }
    }
}
