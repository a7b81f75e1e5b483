import EAC
import SmartCard
import Testing

@testable import CardSimulator

/// The files and selections a terminal uses to recognise an nPA, each with the status word a
/// real card answers (AusweisApp2's sequence: SELECT eID, SELECT MF, READ BINARY EF.DIR by SFI,
/// then EF.CardAccess).
@Suite struct CardRecognitionTests {
    static let eID = "e80704007f00070302"
    static let ePass = "a0000002471001"
    static let eSign = "a000000167455349474e"
    /// EF.DIR as a real nPA lists its applications: ePass, eID, eSign, each 61 { 4F AID }.
    static let efDir = "6109" + "4f07" + ePass + "610b" + "4f09" + eID + "610c" + "4f0a" + eSign

    @Test func efDirListsTheApplicationsAsApplicationTemplates() throws {
        #expect(CardApplication.directory().hexString == Self.efDir)
        let templates = try TLV.parseAll(CardApplication.directory())
        #expect(templates.map(\.tag) == [0x61, 0x61, 0x61])
        #expect(try templates.map { try $0.child(0x4F)?.value } == CardApplication.all)
    }

    @Test func ausweisApp2RecognitionSequence() {
        let card = poweredCard()
        #expect(exchange(card, "00a4040c09" + Self.eID) == "9000")
        #expect(exchange(card, "00a4000c023f00") == "9000")
        #expect(exchange(card, "00b09e0000") == Self.efDir + "9000")
        // It reads on at the offset it has reached: nothing more, end of file.
        let end = String(format: "%04x", Self.efDir.count / 2)
        #expect(exchange(card, "00b0" + end + "00") == "6282")
        #expect(exchange(card, "00b09c0000") == SimulatorSecurityInfos.cardAccess.hexString + "9000")
    }

    @Test(arguments: [ePass, eID, eSign])
    func everyApplicationIsSelectableByAID(aid: String) {
        let card = poweredCard()
        let lc = String(format: "%02x", aid.count / 2)
        #expect(exchange(card, "00a4040c" + lc + aid) == "9000")
        // With an FCI request (P2 00): 6F { 84 DF name }.
        let fci = "6f" + String(format: "%02x", aid.count / 2 + 2) + "84" + lc + aid
        #expect(exchange(card, "00a40400" + lc + aid + "00") == fci + "9000")
        #expect(exchange(card, "00a40400" + lc + aid) == fci + "9000")
        // FCP (P2 04) and FMD (P2 08) are not offered.
        #expect(exchange(card, "00a40404" + lc + aid + "00") == "6a86")
        #expect(exchange(card, "00a40408" + lc + aid + "00") == "6a86")
    }

    @Test func unknownOrPartialAIDIsNotFound() {
        let card = poweredCard()
        #expect(exchange(card, "00a4040c07a0000002471002") == "6a82")
        #expect(exchange(card, "00a4040c05a000000247") == "6a82")
        #expect(exchange(card, "00a404000ae828bd080fa000000167") == "6a82")
    }

    @Test func mfFilesAreReadableBySFIAfterAnApplicationOrMFSelect() {
        let card = poweredCard()
        let atrInfo = AnswerToResetInformation.content.hexString
        for select in ["00a4040c09" + Self.eID, "00a4040c07" + Self.ePass, "00a4040c0a" + Self.eSign, "00a4000c023f00"]
        {
            #expect(exchange(card, select) == "9000")
            #expect(exchange(card, "00b09e0000") == Self.efDir + "9000")
            // SFI 01 in the eID application is DG1 (readable only after TA and CA), elsewhere EF.ATR/INFO.
            #expect(exchange(card, "00b0810000") == (select.hasSuffix(Self.eID) ? "6982" : atrInfo + "9000"))
            #expect(exchange(card, "00b09c0000") == SimulatorSecurityInfos.cardAccess.hexString + "9000")
        }
        // By file identifier in the MF, then by offset.
        #expect(exchange(card, "00a4020c022f00") == "9000")
        #expect(exchange(card, "00b0000400") == String(Self.efDir.dropFirst(8)) + "9000")
        #expect(exchange(card, "00a4020c022f01") == "9000")
        #expect(exchange(card, "00b0000000") == atrInfo + "9000")
    }

    @Test func atrInfoTellsTheExtendedLengthLimits() throws {
        // 7F66 { INTEGER 65535 (max command bytes), INTEGER 65536 (max response bytes) }.
        #expect(AnswerToResetInformation.content.hexString == "7f660a020300ffff0203010000")
        #expect(DER.encodeInteger(0).bytes == [0x02, 0x01, 0x00])
        #expect(DER.encodeInteger(0x7F).bytes == [0x02, 0x01, 0x7F])
        #expect(DER.encodeInteger(0x80).bytes == [0x02, 0x02, 0x00, 0x80])
    }

    /// Reader pseudo-APDUs (CLA FF, PC/SC part 3) are for the reader; a basic reader passes them
    /// on and a contact card refuses the class. The card answers; the connection stays.
    @Test(arguments: ["ffca000000", "ffca010000", "ff82000006ffffffffffff", "ff00000000", "ffb0000010"])
    func readerPseudoAPDUsGetClassNotSupported(apdu: String) {
        let card = poweredCard()
        #expect(exchange(card, apdu) == "6e00")
        #expect(exchange(card, "00a4000c023f00") == "9000")
        #expect(card.isPoweredOn)
    }
}
