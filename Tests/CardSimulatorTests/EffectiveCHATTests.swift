import EAC
import EIDCrypto
import SmartCard
import Testing

@testable import CardSimulator

/// From Terminal Authentication on, the software card holds every command to the effective CHAT
/// (PACE's CHAT ∩ the terminal's chain), as an eID card does (TR-03110-2; TR-03127's rights):
/// PIN management needs "PIN management", the eID application after PACE with the CAN needs
/// "CAN allowed", data groups and verifications their own rights. Before TA the PACE password
/// alone decides: the cardholder's PIN change after PACE with the PIN stays open.
@Suite struct EffectiveCHATTests {
    static let newPIN = Array("654321".utf8)
    let card = SimulatedEIDCard()
    let channel: SimulatedCardChannel

    init() { channel = SimulatedCardChannel(card: card) }

    /// PACE with `password` and `chat` (nil: none), then, with a `pki`, TA with its terminal
    /// and CA: the channel is then under the CA keys, as an eID server's APDUs are.
    func session(_ password: PACEPassword, chat: CHAT?, pki: LoopbackPKI?) throws -> SecureMessaging {
        if let pki {
            card.withContext {
                $0.trustAnchors = [pki.cvca]
                $0.currentDate = CalendarDate(year: 2026, month: 11, day: 1)!
            }
        }
        let infos = try SecurityInfos(efCardAccess: try channel.readFile(shortFileID: 0x1C))
        let (paceResult, secure) = try PACE(
            channel: channel, paceInfo: try infos.runnablePACEInfo(), password: password, chat: chat?.encoded
        ).establishSecureMessaging()
        guard let pki else { return secure }
        let selection = try LoopbackPKI.chipAuthenticationSelection(secure)
        let ephemeral = try ECKeyPair.generate(group: selection.publicKey.group)
        try pki.authenticateTerminal(on: secure, idPICC: paceResult.idPICC, ephemeralKey: ephemeral.publicKey)
        _ = try ChipAuthentication(channel: secure).run(selection: selection, ephemeralKey: ephemeral)
        return secure
    }

    @Test func afterTAThePINCannotBeChangedWithoutPINManagement() throws {
        let pki = try LoopbackPKI()
        let chat = CHAT(role: .terminal, rights: [.readDG4, .pinManagement])
        let secure = try session(.pin("123456"), chat: chat, pki: pki)
        #expect(card.withContext { $0.session.eacAccess.isAuthenticated })
        #expect(
            try secure.transmit(.resetRetryCounter(change: Self.newPIN)).statusWord == .securityStatusNotSatisfied)
        #expect(card.passwords.pin == "123456")
        #expect(try secure.transmit(.resetRetryCounter(unblock: .pin)).statusWord == .securityStatusNotSatisfied)
        // CHANGE REFERENCE DATA is no command of the eID card's PIN management: not supported at all.
        let changeReferenceData = try CommandAPDU(ins: 0x24, p1: 0x00, p2: 0x03, data: Self.newPIN)
        #expect(try secure.transmit(changeReferenceData).statusWord == .instructionNotSupported)
        #expect(card.passwords.pin == "123456")
    }

    @Test func afterTAPINManagementInTheEffectiveCHATChangesThePIN() throws {
        let rights: Set<AccessRight> = [.readDG4, .pinManagement]
        let pki = try LoopbackPKI(terminalRights: rights, dvRights: rights)
        let secure = try session(.pin("123456"), chat: CHAT(role: .terminal, rights: rights), pki: pki)
        #expect(try secure.transmit(.resetRetryCounter(change: Self.newPIN)).statusWord == .success)
        #expect(card.passwords.pin == "654321")
    }

    /// The cardholder's own change: PACE with the PIN, with or without a CHAT, no TA.
    @Test(arguments: [nil, CHAT(role: .terminal, rights: [.readDG4])])
    func withoutTAThePINChangeNeedsOnlyPACEWithThePIN(chat: CHAT?) throws {
        let secure = try session(.pin("123456"), chat: chat, pki: nil)
        #expect(try secure.transmit(.resetRetryCounter(change: Self.newPIN)).statusWord == .success)
        #expect(card.passwords.pin == "654321")
    }

    /// After PACE with the CAN the eID application opens to an authentication terminal only with
    /// "CAN allowed" in the effective CHAT; without it the CAN only lifts the PIN's suspension.
    @Test(arguments: [false, true]) func theCANOpensTheEIDApplicationOnlyWithCANAllowed(canAllowed: Bool) throws {
        let rights: Set<AccessRight> =
            canAllowed ? [.readDG4, .ageVerification, .canAllowed] : [.readDG4, .ageVerification]
        let pki = try LoopbackPKI(terminalRights: rights, dvRights: rights)
        let secure = try session(.can("500540"), chat: CHAT(role: .terminal, rights: rights), pki: pki)
        #expect(try secure.transmit(.selectApplication(EIDFile.eIDApplicationID)).statusWord == .success)
        let expected: StatusWord = canAllowed ? .success : .securityStatusNotSatisfied
        #expect(try secure.transmit(.readBinary(shortFileID: 0x04, ne: 256)).statusWord == expected)
        let verifyAge = try CommandAPDU(
            cla: 0x80, ins: 0x20, p1: 0x80, p2: 0x00, data: AuthenticatedAuxiliaryData.Element.idDateOfBirth.tlv.bytes)
        // Without auxiliary data the age verification has nothing to compare with (6A88) once the
        // right is there; without the eID application open it is refused before (6982).
        #expect(
            try secure.transmit(verifyAge).statusWord
                == (canAllowed ? .referenceDataNotFound : .securityStatusNotSatisfied))
    }

    /// Rights outside the effective CHAT: a data group and the age verification are refused.
    @Test func dataGroupsAndVerificationsOutsideTheEffectiveCHATAre6982() throws {
        let pki = try LoopbackPKI()
        let secure = try session(.pin("123456"), chat: CHAT(role: .terminal, rights: [.readDG4]), pki: pki)
        #expect(try secure.transmit(.selectApplication(EIDFile.eIDApplicationID)).statusWord == .success)
        #expect(try secure.transmit(.readBinary(shortFileID: 0x04, ne: 256)).statusWord == .success)
        #expect(
            try secure.transmit(.readBinary(shortFileID: 0x05, ne: 256)).statusWord == .securityStatusNotSatisfied)
        let verifyAge = try CommandAPDU(
            cla: 0x80, ins: 0x20, p1: 0x80, p2: 0x00, data: AuthenticatedAuxiliaryData.Element.idDateOfBirth.tlv.bytes)
        #expect(try secure.transmit(verifyAge).statusWord == .securityStatusNotSatisfied)
    }
}
