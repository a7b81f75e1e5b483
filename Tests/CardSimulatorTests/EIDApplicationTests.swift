import EAC
import EIDCrypto
import SmartCard
import Testing

@testable import CardSimulator

/// The eID application: its data groups (the ERIKA MUSTERMANN sample in the exact ASN.1 of the
/// data groups) and its access rules. TA and CA are not run here: each test sets the access
/// state they would leave (`EACAccess`) and checks the status word the card answers.
@Suite struct EIDApplicationTests {
    static let selectEID = "00a4040c09e80704007f00070302"

    /// The sample's DER, data group by data group (docs/protocol.md, "Sample data").
    static let sampleDER: [Int: String] = [
        1: "610413024944", 2: "6203130144", 3: "630a1208" + ascii("20340630"), 4: "64070c054552494b41",
        5: "650c0c0a4d55535445524d414e4e", 6: "66020c00", 7: "67020c00", 8: "680a1208" + ascii("19840812"),
        9: "690aa1080c064245524c494e", 10: "6a03130144", 11: "6b03130146", 13: "6d080c064741424c4552",
        15: "6f0a1208" + ascii("20191101"),
        17: "712d302baa120c10484549444553545241e1ba9e45203137ab070c054bc3964c4ead03130144ae0713053531313437",
        18: "7209040702760503150000", 19: "7316a1140c12" + ascii("RESIDENCE PERMIT 1"),
        20: "7416a1140c12" + ascii("RESIDENCE PERMIT 2"), 21: "7515131374656c3a2b34392d3033302d31323334353637",
    ]

    static func ascii(_ text: String) -> String { Array(text.utf8).hexString }

    /// A card with the eID application selected and `access` as TA and CA would leave it.
    static func card(
        rights: Set<AccessRight>?, terminalAuthenticated: Bool = true, chipAuthenticated: Bool = true,
        profile: CardProfile = CardProfile(), auxiliaryData: AuthenticatedAuxiliaryData? = nil
    ) -> SimulatedEIDCard {
        let card = poweredCard(profile)
        #expect(exchange(card, selectEID) == "9000")
        card.withContext {
            $0.session.eacAccess = EACAccess(
                effectiveCHAT: rights.map { CHAT(role: .terminal, rights: $0) },
                terminalAuthenticated: terminalAuthenticated, chipAuthenticated: chipAuthenticated)
            $0.session.authenticatedAuxiliaryData = auxiliaryData
        }
        return card
    }

    static func readBySFI(_ number: Int) -> String { "00b0" + [UInt8(0x80 | number)].hexString + "0000" }

    @Test func theSampleIsEncodedWithTheDataGroupsASN1() {
        #expect(Set(EIDSampleData.dataGroups.keys) == Set(Self.sampleDER.keys))
        for (number, der) in Self.sampleDER {
            #expect(EIDSampleData.dataGroups[number]?.hexString == der, "DG\(number)")
        }
    }

    @Test func everySampleDataGroupIsReadableWithItsRightBySFIAndAfterSelect() {
        for (number, der) in Self.sampleDER {
            let right = AccessRight(rawValue: 7 + number)!
            let card = Self.card(rights: [right])
            #expect(exchange(card, Self.readBySFI(number)) == der + "9000", "DG\(number)")
            let fid = String(format: "%04x", 0x0100 + number)
            #expect(exchange(card, "00a4020c02" + fid) == "9000")
            #expect(exchange(card, "00b0000000") == der + "9000", "DG\(number) after SELECT")
        }
    }

    @Test func withoutTheRightOrBeforeTAAndCAReadingGets6982() {
        let cases: [(Set<AccessRight>?, Bool, Bool)] = [
            (nil, false, false),  // nothing happened
            ([.readDG4], false, false),  // a CHAT from PACE only
            ([.readDG4], true, false),  // TA without CA
            ([.readDG4], false, true),  // CA without TA
            ([.readDG5, .readDG8], true, true),  // TA and CA, but no right to DG4
            (nil, true, true),  // no effective CHAT
        ]
        for (rights, ta, ca) in cases {
            let card = Self.card(rights: rights, terminalAuthenticated: ta, chipAuthenticated: ca)
            #expect(exchange(card, Self.readBySFI(4)) == "6982", "\(String(describing: rights)) TA \(ta) CA \(ca)")
            #expect(exchange(card, "00a4020c020104") == "9000")  // selecting is allowed
            #expect(exchange(card, "00b0000000") == "6982")
        }
        // The rights of one data group do not open another.
        let card = Self.card(rights: [.readDG5])
        #expect(exchange(card, Self.readBySFI(5)) == Self.sampleDER[5]! + "9000")
        #expect(exchange(card, Self.readBySFI(4)) == "6982")
        #expect(exchange(card, Self.readBySFI(17)) == "6982")
    }

    @Test func readingAnMFFileBySFIStaysInTheApplication() {
        let card = Self.card(rights: [.readDG1])
        #expect(exchange(card, "00b09c0000") == SimulatorSecurityInfos.cardAccess.hexString + "9000")
        #expect(exchange(card, Self.readBySFI(1)) == Self.sampleDER[1]! + "9000")
    }

    @Test func aDataGroupTheCardDoesNotHoldIsNotFound() {
        let card = Self.card(rights: [.readDG12, .readDG14])
        #expect(exchange(card, Self.readBySFI(12)) == "6a82")
        #expect(exchange(card, "00a4020c02010e") == "6a82")
        // Outside the eID application the data groups are not there (SFI 01 is EF.ATR/INFO).
        #expect(exchange(card, "00a4000c023f00") == "9000")
        #expect(exchange(card, "00a4020c020104") == "6a82")
    }

    @Test func longUTF8NamesAreReadInPieces() throws {
        var profile = CardProfile()
        let name = String(repeating: "ÄÖÜ ẞ Łukasz-Øster ", count: 20)  // 2 and 3 byte UTF-8, 500+ bytes
        profile.dataGroups[4] = try EIDDataGroup.encode(4, text: name)
        let card = Self.card(rights: [.readDG4], profile: profile)
        let der = profile.dataGroups[4]!
        #expect(der.count > 256)
        // Extended Le: everything at once.
        #expect(exchange(card, "00b08400000000") == der.hexString + "9000")
        // Short Le: 256 bytes at a time, on by offset, as a terminal without extended length reads.
        var read: [UInt8] = []
        var sw = "9000"
        while sw == "9000" && read.count < der.count {
            let response = card.respond(to: [UInt8](hex: String(format: "00b0%04x00", read.count))!)
            read += response.dropLast(2)
            sw = Array(response.suffix(2)).hexString
        }
        #expect(read == der)
        let value = try #require(EIDDataGroup.innerValue(der))
        #expect(String(decoding: value, as: UTF8.self) == name)
    }

    @Test func endingSecureMessagingEndsTheAccess() {
        struct Passthrough: CardSecureMessaging {
            func unwrap(_ command: CommandAPDU) throws -> CommandAPDU { command }
            func wrap(_ response: ResponseAPDU) -> ResponseAPDU { response }
        }
        let card = Self.card(rights: [.readDG4])
        card.withContext {
            $0.session.secureMessaging = Passthrough()
            $0.session.paceCHAT = CHAT(role: .terminal, rights: [.readDG4])
        }
        // A plain command while secure messaging runs ends it, and TA and CA with it.
        #expect(exchange(card, Self.readBySFI(4)) == "6982")
        #expect(card.withContext { $0.session.eacAccess } == EACAccess())
        #expect(card.withContext { $0.session.paceCHAT } == nil)
    }

    // MARK: VERIFY of authenticated auxiliary data

    static let verifyAge = "80208000" + "0b" + "060904007f000703010401"
    static let verifyValidity = "80208000" + "0b" + "060904007f000703010402"
    static let verifyCommunity = "80208000" + "0b" + "060904007f000703010403"

    static func aux(
        birth: String? = nil, validity: String? = nil, community: String? = nil
    ) -> AuthenticatedAuxiliaryData {
        AuthenticatedAuxiliaryData(
            [
                birth.map { .ageVerification(CalendarDate(iso8601: $0)!) },
                validity.map { .documentValidity(CalendarDate(iso8601: $0)!) },
                community.map { .communityID([UInt8](hex: $0)!) },
            ].compactMap { $0 })
    }

    static let verifyRights: Set<AccessRight> = [.ageVerification, .communityIDVerification]

    @Test(arguments: [
        // DG8 is 1984-08-12: born on or before the date passes.
        ("1984-08-12", "9000"), ("2008-11-23", "9000"), ("1984-08-11", "6300"), ("1966-01-01", "6300"),
    ])
    func ageVerificationComparesDG8(date: String, sw: String) {
        let card = Self.card(rights: Self.verifyRights, auxiliaryData: Self.aux(birth: date))
        #expect(exchange(card, Self.verifyAge) == sw)
    }

    @Test(arguments: [
        // DG3 is 2034-06-30: still valid on the date passes.
        ("2026-11-23", "9000"), ("2034-06-30", "9000"), ("2034-07-01", "6300"),
    ])
    func documentValidityComparesDG3(date: String, sw: String) {
        let card = Self.card(rights: [], auxiliaryData: Self.aux(validity: date))
        #expect(exchange(card, Self.verifyValidity) == sw)
    }

    @Test(arguments: [
        // DG18 is 02 76 05 03 15 00 00: a prefix passes.
        ("02760503150000", "9000"), ("0276050315", "9000"), ("0276", "9000"), ("02760400110000", "6300"),
        ("0276050315000000", "6300"),
    ])
    func communityIDVerificationComparesDG18(prefix: String, sw: String) {
        let card = Self.card(rights: Self.verifyRights, auxiliaryData: Self.aux(community: prefix))
        #expect(exchange(card, Self.verifyCommunity) == sw)
    }

    @Test func verificationNeedsTAAndCAAndTheRight() {
        let all = Self.aux(birth: "2008-11-23", validity: "2026-11-23", community: "0276")
        // Before TA and CA: nothing.
        for (ta, ca) in [(false, false), (true, false), (false, true)] {
            let card = Self.card(
                rights: Self.verifyRights, terminalAuthenticated: ta, chipAuthenticated: ca, auxiliaryData: all)
            for command in [Self.verifyAge, Self.verifyValidity, Self.verifyCommunity] {
                #expect(exchange(card, command) == "6982")
            }
        }
        // Without the rights: age and community refused; validity has no right of its own.
        let card = Self.card(rights: [.readDG4], auxiliaryData: all)
        #expect(exchange(card, Self.verifyAge) == "6982")
        #expect(exchange(card, Self.verifyCommunity) == "6982")
        #expect(exchange(card, Self.verifyValidity) == "9000")
        // With only one of them.
        let ageOnly = Self.card(rights: [.ageVerification], auxiliaryData: all)
        #expect(exchange(ageOnly, Self.verifyAge) == "9000")
        #expect(exchange(ageOnly, Self.verifyCommunity) == "6982")
    }

    @Test func verifyRefusesWhatItCannotCompare() {
        let card = Self.card(rights: Self.verifyRights, auxiliaryData: Self.aux(birth: "2008-11-23"))
        #expect(exchange(card, Self.verifyCommunity) == "6a88")  // no community ID was authenticated
        #expect(exchange(card, "802080000b060904007f000703010404") == "6a88")  // not an aux data OID we know
        #expect(exchange(card, "80208100" + "0b060904007f000703010401") == "6a86")  // P1P2
        #expect(exchange(card, "8020800003040102") == "6a80")  // not an OID
        #expect(exchange(card, "80208000" + "0d060904007f0007030104010000") == "6a80")  // trailing bytes
        #expect(exchange(card, "00208000" + "0b060904007f000703010401") == "6e00")  // VERIFY of CLA 00
        #expect(exchange(card, "80b0840000") == "6e00")  // CLA 80 for another command
        #expect(exchange(card, Self.verifyAge) == "9000")
        // Without authenticated auxiliary data at all.
        let none = Self.card(rights: Self.verifyRights)
        #expect(exchange(none, Self.verifyAge) == "6a88")
    }

    @Test(arguments: [
        // An unknown month and day count as the latest possible: 1984-12-31.
        ("1984    ", "1984-12-31", "9000"), ("1984    ", "1984-12-30", "6300"), ("19840000", "1985-01-01", "9000"),
        ("198408  ", "1984-08-31", "9000"), ("198408  ", "1984-08-30", "6300"),
        // Not a date: fails.
        ("        ", "2026-11-23", "6300"), ("1984AB12", "2026-11-23", "6300"),
    ])
    func partlyUnknownBirthDatesNeverPassTooEarly(dg8: String, date: String, sw: String) throws {
        var profile = CardProfile()
        profile.dataGroups[8] = try? EIDDataGroup.encode(8, text: dg8)
        if profile.dataGroups[8] == nil { profile.dataGroups[8] = [0x68, 0x0A, 0x12, 0x08] + Array(dg8.utf8) }
        let card = Self.card(rights: Self.verifyRights, profile: profile, auxiliaryData: Self.aux(birth: date))
        #expect(exchange(card, Self.verifyAge) == sw)
    }

    @Test func verifyFailsWhenTheDataGroupIsMissing() {
        var profile = CardProfile()
        profile.dataGroups[3] = nil
        profile.dataGroups[8] = nil
        profile.dataGroups[18] = nil
        let aux = Self.aux(birth: "2008-11-23", validity: "2026-11-23", community: "0276")
        let card = Self.card(rights: Self.verifyRights, profile: profile, auxiliaryData: aux)
        #expect(exchange(card, Self.verifyAge) == "6300")
        #expect(exchange(card, Self.verifyValidity) == "6300")
        #expect(exchange(card, Self.verifyCommunity) == "6300")
    }
}

/// The eID application inside secure messaging, as a terminal reaches it after PACE: VERIFY
/// travels with CLA 8C and READ BINARY with 0C, each MAC-checked by the terminal's side.
@Suite struct EIDApplicationSecureMessagingTests {
    @Test func verifyAndReadBinaryWorkInsideSecureMessaging() throws {
        let channel = SimulatedCardChannel()
        let chat = CHAT(role: .terminal, rights: [.readDG4, .ageVerification])
        let secure = try PACE(
            channel: channel, protocol: .ecdhGenericMappingAES128, domainParameterID: 13, password: .pin("123456"),
            chat: chat.encoded
        ).establishSecureMessaging().channel
        #expect(channel.card.withContext { $0.session.paceCHAT } == chat)
        let selectEID = try CommandAPDU(ins: 0xA4, p1: 0x04, p2: 0x0C, data: CardApplication.eID)
        #expect(try secure.transmit(selectEID).statusWord == .success)
        let readDG4 = try CommandAPDU.readBinary(shortFileID: 4)
        let verifyAge = try CommandAPDU(
            cla: 0x80, ins: 0x20, p1: 0x80, p2: 0x00, data: AuthenticatedAuxiliaryData.Element.idDateOfBirth.tlv.bytes)
        // PACE alone opens nothing.
        #expect(try secure.transmit(readDG4).statusWord == .securityStatusNotSatisfied)
        #expect(try secure.transmit(verifyAge).statusWord == .securityStatusNotSatisfied)
        // As TA and CA would leave it (TA/CA restart secure messaging; here the PACE keys stay).
        channel.card.withContext {
            $0.session.eacAccess = EACAccess(effectiveCHAT: chat, terminalAuthenticated: true, chipAuthenticated: true)
            $0.session.authenticatedAuxiliaryData = AuthenticatedAuxiliaryData([
                .ageVerification(CalendarDate(year: 2008, month: 11, day: 23)!)
            ])
        }
        let dg4 = try secure.transmit(readDG4)
        #expect(dg4.statusWord == .success && dg4.data == EIDSampleData.dataGroups[4])
        #expect(try secure.transmit(verifyAge).statusWord == .success)
        #expect(try secure.transmit(CommandAPDU.readBinary(shortFileID: 5)).statusWord == .securityStatusNotSatisfied)
    }
}
