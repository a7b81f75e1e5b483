import Testing

@testable import SmartCard

/// The ISO/IEC 7816-4 builders, byte for byte.
@Suite struct ISO7816CommandTests {
    @Test func selectCommands() {
        #expect(CommandAPDU.selectFile(0x011C).bytes.hexString == "00a4020c02011c")
        #expect(CommandAPDU.selectMasterFile.bytes.hexString == "00a4000c023f00")
        #expect(
            CommandAPDU.selectApplication(EIDFile.eIDApplicationID).bytes.hexString
                == "00a4040c09e80704007f00070302")
    }

    @Test func readBinaryCommands() {
        #expect(CommandAPDU.readBinary(shortFileID: EIDFile.cardAccessShortID).bytes.hexString == "00b09c0000")
        #expect(CommandAPDU.readBinary(shortFileID: 0x1D, offset: 0x10, ne: 16).bytes.hexString == "00b09d1010")
        #expect(
            CommandAPDU.readBinary(shortFileID: 0x1C, ne: CommandAPDU.maxExtendedNe).bytes.hexString
                == "00b09c00000000")
        #expect(CommandAPDU.readBinary(offset: 0x0123, ne: 200).bytes.hexString == "00b00123c8")
    }

    @Test func getChallenge() {
        #expect(CommandAPDU.getChallenge().bytes.hexString == "0084000008")
    }
}
