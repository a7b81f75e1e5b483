import EAC
import SmartCard
import Testing

/// The builders of PACE and the PIN management, byte for byte, and the reading of MSE:Set AT
/// that the software card shares with the terminal.
@Suite struct PACECommandTests {
    static let aes128 = PACEProtocol.ecdhGenericMappingAES128.oid
    /// A CHAT of an authentication terminal (06 id-AT, 53 rights).
    static let chat = [UInt8](hex: "7f4c12060904007f000703010202530500000000ff")!

    @Test(arguments: [(PACEPasswordType.mrz, "01"), (.can, "02"), (.pin, "03"), (.puk, "04")])
    func mseSetATNamesThePassword(password: PACEPasswordType, reference: String) throws {
        #expect(
            try CommandAPDU.mseSetAT(pace: Self.aes128, password: password).bytes.hexString
                == "0022c1a40f800a04007f00070202040202" + "8301" + reference)
    }

    @Test func mseSetATCarriesTheCHATLast() throws {
        let command = try CommandAPDU.mseSetAT(pace: Self.aes128, password: .pin, chat: Self.chat)
        #expect(command.bytes.hexString == "0022c1a424800a04007f00070202040202830103" + Self.chat.hexString)
        let withParameter = PACEAuthenticationTemplate(
            protocol: Self.aes128, password: .can, domainParameterID: [0x0D], chat: Self.chat)
        #expect(
            try withParameter.command.bytes.hexString
                == "0022c1a427800a04007f00070202040202830102" + "84010d" + Self.chat.hexString)
    }

    @Test func generalAuthenticateChainsStepsOneToThree() throws {
        #expect(
            try CommandAPDU.generalAuthenticate(pace: DynamicAuthenticationData(), isLast: false).bytes.hexString
                == "10860000027c0000")
        let token = DynamicAuthenticationData([TLV(tag: 0x85, value: [UInt8](repeating: 0xAB, count: 8))])
        #expect(
            try CommandAPDU.generalAuthenticate(pace: token, isLast: true).bytes.hexString
                == "008600000c7c0a8508abababababababab00")
    }

    @Test func resetRetryCounterCommands() throws {
        #expect(
            try CommandAPDU.resetRetryCounter(change: Array("654321".utf8)).bytes.hexString == "002c020306363534333231")
        #expect(try CommandAPDU.resetRetryCounter(unblock: .pin).bytes.hexString == "002c0303")
    }

    // MARK: reading MSE:Set AT (the software card's side)

    @Test func templateRoundTrips() throws {
        for template in [
            PACEAuthenticationTemplate(protocol: Self.aes128, password: .pin),
            PACEAuthenticationTemplate(
                protocol: Self.aes128, password: .puk, domainParameterID: [0x0D], chat: Self.chat),
        ] {
            #expect(
                try PACEAuthenticationTemplate(command: template.command, offeredProtocols: [Self.aes128]) == template)
        }
    }

    /// Each malformed MSE:Set AT and the status word the card answers for it.
    static let malformed: [(command: String, statusWord: UInt16)] = [
        ("0022c1a6" + "0f800a04007f00070202040202830103", 0x6A86),  // P2 not A4
        ("0022c1a4", 0x6700),  // no data: how AusweisApp2 ends a PACE channel
        ("0022c1a4" + "03800a04", 0x6A80),  // broken TLV
        ("0022c1a4" + "0c800a04007f00070202040202", 0x6A80),  // no 83
        ("0022c1a4" + "03830103", 0x6A80),  // no 80
        ("0022c1a4" + "10800a04007f0007020204020283020003", 0x6A80),  // 83 of two bytes
        ("0022c1a4" + "12800a04007f00070202040202830103830103", 0x6A80),  // 83 twice
        ("0022c1a4" + "12800a04007f00070202040202830103910100", 0x6A80),  // unknown object 91
        ("0022c1a4" + "147f4c020600" + "800a04007f00070202040202830103", 0x6A80),  // CHAT without 53
        ("0022c1a4" + "0f800a04007f00070202040203830103", 0x6A80),  // AES-192: not offered
        ("0022c1a4" + "0f800a04007f00070202040202830105", 0x6A88),  // password reference 05
        ("0022c1a4" + "0f800a04007f00070202040202830100", 0x6A88),  // password reference 00
    ]

    @Test(arguments: PACECommandTests.malformed)
    func malformedTemplatesGetTheCardsStatusWord(row: (command: String, statusWord: UInt16)) throws {
        let (command, statusWord) = row
        let apdu = try CommandAPDU(bytes: [UInt8](hex: command)!)
        #expect(throws: CardError.statusWord(StatusWord(rawValue: statusWord))) {
            try PACEAuthenticationTemplate(command: apdu, offeredProtocols: [Self.aes128])
        }
    }

    @Test func withoutOfferedProtocolsAnyObjectIdentifierIsRead() throws {
        let command = try CommandAPDU.mseSetAT(pace: PACEProtocol.ecdhGenericMappingAES256.oid, password: .can)
        #expect(try PACEAuthenticationTemplate(command: command).protocol == PACEProtocol.ecdhGenericMappingAES256.oid)
    }
}
