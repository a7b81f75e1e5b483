import EAC
import EIDCrypto
import FoundationEssentials
import SmartCard
import Testing

@testable import CardSimulator

/// A CVCA → DV → terminal PKI on brainpoolP256r1 with fresh keys, for the card's TA.
struct LoopbackPKI {
    static let today = CalendarDate(year: 2026, month: 11, day: 23)!
    let cvca: CVCertificate
    let dv: CVCertificate
    let terminal: CVCertificate
    let terminalKey: ECKeyPair
    let dvKey: ECKeyPair

    init(
        terminalRights: Set<AccessRight> = [.readDG4, .readDG5, .readDG8], terminalExpires: CalendarDate? = nil,
        dvRights: Set<AccessRight> = [.readDG1, .readDG4, .readDG5, .readDG8, .ageVerification]
    ) throws {
        let group = try ECGroup(.brainpoolP256r1)
        let cvcaKey = try ECKeyPair.generate(group: group)
        dvKey = try ECKeyPair.generate(group: group)
        terminalKey = try ECKeyPair.generate(group: group)
        let d = { (y: Int, m: Int, day: Int) in CalendarDate(year: y, month: m, day: day)! }
        cvca = try CVCertificateBody(
            authorityReference: "DETESTCVCA00001",
            publicKey: try CVPublicKey(
                algorithm: .ecdsaSHA256, point: cvcaKey.publicKey, includingDomainParameters: true),
            holderReference: "DETESTCVCA00001", chat: CHAT(role: .cvca, rights: Set(AccessRight.allCases)),
            effectiveDate: d(2026, 1, 1), expirationDate: d(2029, 1, 1)
        ).signed(by: cvcaKey.privateKey, algorithm: .ecdsaSHA256)
        dv = try CVCertificateBody(
            authorityReference: "DETESTCVCA00001",
            publicKey: try CVPublicKey(
                algorithm: .ecdsaSHA256, point: dvKey.publicKey, includingDomainParameters: false),
            holderReference: "DEDVTEST00001",
            chat: CHAT(role: .dvOfficialDomestic, rights: dvRights),
            effectiveDate: d(2026, 11, 1), expirationDate: d(2027, 2, 1)
        ).signed(by: cvcaKey.privateKey, algorithm: .ecdsaSHA256)
        terminal = try CVCertificateBody(
            authorityReference: "DEDVTEST00001",
            publicKey: try CVPublicKey(
                algorithm: .ecdsaSHA256, point: terminalKey.publicKey, includingDomainParameters: false),
            holderReference: "DEATTEST00001", chat: CHAT(role: .terminal, rights: terminalRights),
            effectiveDate: d(2026, 11, 20), expirationDate: terminalExpires ?? d(2026, 12, 20)
        ).signed(by: dvKey.privateKey, algorithm: .ecdsaSHA256)
    }

    /// The card's Chip Authentication key and protocol, from EF.CardSecurity read over `secure` and
    /// verified under the simulator's TEST CSCA.
    static func chipAuthenticationSelection(_ secure: SecureMessaging) throws -> ChipAuthentication.Selection {
        try ChipAuthentication.select(
            from: try PassiveAuthentication.verify(
                try PassiveAuthentication.readCardSecurity(secure), csca: SimulatorTestPKI.csca))
    }

    /// Terminal Authentication over `secure` with this PKI's DV and terminal, for `ephemeralKey`.
    func authenticateTerminal(on secure: SecureMessaging, idPICC: [UInt8], ephemeralKey: ECPoint) throws {
        let ta = TerminalAuthentication(channel: secure)
        try ta.importCertificates([dv, terminal], cardTrustPoints: ["DETESTCVCA00001"])
        try ta.authenticate(
            terminal: terminal, idPICC: idPICC, challenge: try ta.getChallenge(), ephemeralKey: ephemeralKey,
            auxiliaryData: nil, signer: KeyTerminalSigner(privateKey: terminalKey.privateKey, algorithm: .ecdsaSHA256))
    }
}

/// eid's terminal side (PACE with a CHAT, TA, passive authentication, CA) against the software
/// card in process, and the card's status word for each of its TA/CA rules.
@Suite struct EACLoopbackTests {
    let pki: LoopbackPKI
    let card: SimulatedEIDCard
    let channel: SimulatedCardChannel

    init() throws {
        let pki = try LoopbackPKI()
        let card = SimulatedEIDCard()
        card.withContext {
            $0.trustAnchors = [pki.cvca]
            $0.currentDate = CalendarDate(year: 2026, month: 11, day: 1)!
        }
        self.pki = pki
        self.card = card
        channel = SimulatedCardChannel(card: card)
    }

    static let chat = CHAT(role: .terminal, rights: [.readDG1, .readDG4, .readDG5, .readDG8])

    func pace(chat: CHAT? = EACLoopbackTests.chat) throws -> (PACEResult, SecureMessaging) {
        let infos = try SecurityInfos(efCardAccess: try channel.readFile(shortFileID: 0x1C))
        let pace = try PACE(
            channel: channel, paceInfo: try infos.runnablePACEInfo(), password: .pin("123456"), chat: chat?.encoded)
        return try pace.establishSecureMessaging()
    }

    @Test func paceTAAndCARestartSecureMessagingUnderTheCAKeys() throws {
        let (paceResult, secure) = try pace()
        #expect(paceResult.mostRecentCAR == "DETESTCVCA00001")
        let cardSecurity = try PassiveAuthentication.readCardSecurity(secure)
        let infos = try PassiveAuthentication.verify(cardSecurity, csca: SimulatorTestPKI.csca)
        let selection = try ChipAuthentication.select(from: infos)
        let ephemeral = try ECKeyPair.generate(group: selection.publicKey.group)

        let ta = TerminalAuthentication(channel: secure)
        let sent = try ta.importCertificates(
            [pki.cvca, pki.dv, pki.terminal],
            cardTrustPoints: [paceResult.mostRecentCAR, paceResult.previousCAR].compactMap { $0 })
        #expect(sent == 2)
        let challenge = try ta.getChallenge()
        try ta.authenticate(
            terminal: pki.terminal, idPICC: paceResult.idPICC, challenge: challenge, ephemeralKey: ephemeral.publicKey,
            auxiliaryData: nil,
            signer: KeyTerminalSigner(privateKey: pki.terminalKey.privateKey, algorithm: .ecdsaSHA256))
        let afterTA = card.withContext { $0.session.eacAccess }
        #expect(afterTA.terminalAuthenticated && !afterTA.chipAuthenticated)
        #expect(afterTA.effectiveCHAT?.accessRights == [.readDG4, .readDG5, .readDG8])
        #expect(card.withContext { $0.currentDate } == pki.terminal.body.effectiveDate)

        let paceKeys = SessionKeys(encryption: secure.keys.encryption, mac: secure.keys.mac)
        let result = try ChipAuthentication(channel: secure).run(selection: selection, ephemeralKey: ephemeral)
        #expect(result.nonce.count == 8 && result.token.count == 8)
        #expect(card.withContext { $0.session.eacAccess.chipAuthenticated })
        #expect(secure.keys == result.sessionKeys && result.sessionKeys != paceKeys)
        #expect(secure.ssc == [UInt8](repeating: 0, count: 16))
        // The next command runs under the CA keys with SSC 1 and the card answers it.
        #expect(try secure.readFile(shortFileID: 0x1C) == SimulatorSecurityInfos.cardAccess)
        // A command under the old PACE keys is refused (6988) and ends SM.
        var old = SecureMessagingSession(keys: paceKeys, ssc: [UInt8](repeating: 0, count: 15) + [9])
        let stale = try old.protect(CommandAPDU.readBinary(shortFileID: 0x1C, ne: 256))
        #expect(try channel.transmit(stale).statusWord == .smDataObjectsIncorrect)
    }

    /// Chip Authentication with a key only the eID server holds (online authentication): the
    /// client passes the card's nonce and token on; the server, with the private key, derives
    /// the keys and finds the token right.
    @Test func chipAuthenticationWithTheServersKeyGivesNonceAndToken() throws {
        let (paceResult, secure) = try pace()
        let selection = try LoopbackPKI.chipAuthenticationSelection(secure)
        let server = try ECKeyPair.generate(group: selection.publicKey.group)
        try pki.authenticateTerminal(on: secure, idPICC: paceResult.idPICC, ephemeralKey: server.publicKey)
        let answer = try ChipAuthentication(channel: secure).runWithServerKey(
            selection: selection, serverKey: server.publicKey)
        #expect(card.withContext { $0.session.eacAccess.chipAuthenticated })
        let derived = try ChipAuthentication.terminalKeys(
            protocol: selection.protocol, chipKey: selection.publicKey, ephemeralKey: server, nonce: answer.nonce,
            token: answer.token)
        #expect(derived.nonce == answer.nonce)
    }

    /// Without Terminal Authentication the card refuses Chip Authentication: `refused`, naming the step.
    @Test func chipAuthenticationWithTheServersKeyBeforeTAIsRefused() throws {
        let (_, secure) = try pace()
        let selection = try LoopbackPKI.chipAuthenticationSelection(secure)
        let server = try ECKeyPair.generate(group: selection.publicKey.group)
        #expect {
            try ChipAuthentication(channel: secure).runWithServerKey(selection: selection, serverKey: server.publicKey)
        } throws: { error in
            guard case .refused = error as? ChipAuthenticationError else { return false }
            return true
        }
    }

    /// A terminal certificate that grants DG9, which its DV lacks: the card accepts the chain
    /// (no 6A80 at PSO:Verify), but the effective CHAT is PACE's AND the chain's, so READ BINARY
    /// of DG9 is refused with 6982 although the terminal certificate and PACE's CHAT grant it.
    @Test func aRightOnlyTheTerminalGrantsIsRefusedWith6982() throws {
        let pki = try LoopbackPKI(terminalRights: [.readDG4, .readDG5, .readDG8, .readDG9])
        card.withContext { $0.trustAnchors = [pki.cvca] }
        let paceCHAT = CHAT(role: .terminal, rights: [.readDG1, .readDG4, .readDG8, .readDG9])
        let (paceResult, secure) = try pace(chat: paceCHAT)
        let selection = try LoopbackPKI.chipAuthenticationSelection(secure)
        let ephemeral = try ECKeyPair.generate(group: selection.publicKey.group)
        try pki.authenticateTerminal(on: secure, idPICC: paceResult.idPICC, ephemeralKey: ephemeral.publicKey)
        #expect(card.withContext { $0.session.eacAccess.effectiveCHAT?.accessRights } == [.readDG4, .readDG8])
        _ = try ChipAuthentication(channel: secure).run(selection: selection, ephemeralKey: ephemeral)
        #expect(try secure.transmit(.selectApplication(EIDFile.eIDApplicationID)).statusWord == .success)
        #expect(try secure.transmit(.readBinary(shortFileID: 0x04, ne: 256)).statusWord == .success)
        #expect(
            try secure.transmit(.readBinary(shortFileID: 0x09, ne: 256)).statusWord == .securityStatusNotSatisfied)
    }

    /// A profile's own Chip Authentication key: EF.CardSecurity carries its public key (signed by
    /// the test document signer) and CA with it succeeds; the default key would not match.
    @Test func aProfileChipAuthenticationKeyIsTheOneCAUses() throws {
        let group = try ECGroup(.brainpoolP256r1)
        let scalar = [UInt8](repeating: 0, count: 31) + [0x2A]
        let profile = try CardProfile.decode(
            Data(#"{"chipAuthenticationKey": "\#(scalar.hexString)"}"#.utf8), source: "profile.json")
        #expect(profile.chipAuthenticationKey == scalar)
        let card = SimulatedEIDCard(profile: profile)
        card.withContext {
            $0.trustAnchors = [pki.cvca]
            $0.currentDate = CalendarDate(year: 2026, month: 11, day: 1)!
        }
        let channel = SimulatedCardChannel(card: card)
        let infos = try SecurityInfos(efCardAccess: try channel.readFile(shortFileID: 0x1C))
        let (paceResult, secure) = try PACE(
            channel: channel, paceInfo: try infos.runnablePACEInfo(), password: .pin("123456"),
            chat: Self.chat.encoded
        ).establishSecureMessaging()
        let selection = try LoopbackPKI.chipAuthenticationSelection(secure)
        let expected = try ECKeyPair(group: group, privateScalar: scalar).publicKey
        #expect(selection.publicKey == expected)
        #expect(selection.publicKey != SimulatorSecurityInfos.chipAuthentication.staticKey.publicKey)

        let ephemeral = try ECKeyPair.generate(group: group)
        try pki.authenticateTerminal(on: secure, idPICC: paceResult.idPICC, ephemeralKey: ephemeral.publicKey)
        _ = try ChipAuthentication(channel: secure).run(selection: selection, ephemeralKey: ephemeral)
        #expect(card.withContext { $0.session.eacAccess.chipAuthenticated })
    }

    @Test(arguments: ["00", "zz", String(repeating: "00", count: 32), String(repeating: "ff", count: 32)])
    func aChipAuthenticationKeyThatIsNoKeyIsRefused(hex: String) {
        #expect(throws: CardProfileError.self) {
            try CardProfile.decode(Data(#"{"chipAuthenticationKey": "\#(hex)"}"#.utf8), source: "profile.json")
        }
    }

    /// Runs PACE and imports the chain; returns the parts for TA.
    func preparedTA(chat: CHAT? = EACLoopbackTests.chat, chain: [CVCertificate]? = nil) throws
        -> (PACEResult, SecureMessaging, TerminalAuthentication, ECKeyPair)
    {
        let (paceResult, secure) = try pace(chat: chat)
        let ta = TerminalAuthentication(channel: secure)
        try ta.importCertificates(chain ?? [pki.dv, pki.terminal], cardTrustPoints: ["DETESTCVCA00001"])
        return (paceResult, secure, ta, try ECKeyPair.generate(group: try ECGroup(.brainpoolP256r1)))
    }

    @Test func aWrongTASignatureIs6300AndGivesNoAccess() throws {
        let (paceResult, secure, ta, ephemeral) = try preparedTA()
        let challenge = try ta.getChallenge()
        let wrongSigner = KeyTerminalSigner(privateKey: pki.dvKey.privateKey, algorithm: .ecdsaSHA256)
        #expect(throws: TerminalAuthenticationError.refused(step: .externalAuthenticate, .verificationFailed)) {
            try ta.authenticate(
                terminal: pki.terminal, idPICC: paceResult.idPICC, challenge: challenge,
                ephemeralKey: ephemeral.publicKey, auxiliaryData: nil, signer: wrongSigner)
        }
        #expect(card.withContext { $0.session.eacAccess } == EACAccess())
        // CA is then refused: 6985.
        let selection = try LoopbackPKI.chipAuthenticationSelection(secure)
        #expect(throws: ChipAuthenticationError.refused(step: .generalAuthenticate, .conditionsNotSatisfied)) {
            try ChipAuthentication(channel: secure).run(selection: selection, ephemeralKey: ephemeral)
        }
    }

    @Test func cardRulesAnswerTheirStatusWords() throws {
        // Without PACE: MSE:Set DST, PSO, GET CHALLENGE, EXTERNAL AUTHENTICATE → 6982.
        let plain = SimulatedCardChannel(card: card)
        card.powerOn()
        #expect(
            try plain.transmit(.mseSetDST(authorityReference: "DETESTCVCA00001")).statusWord
                == .securityStatusNotSatisfied)
        #expect(try plain.transmit(try .psoVerifyCertificate(pki.dv)).statusWord == .securityStatusNotSatisfied)
        #expect(try plain.transmit(.getChallenge()).statusWord == .securityStatusNotSatisfied)
        #expect(try plain.transmit(.externalAuthenticate(signature: [1])).statusWord == .securityStatusNotSatisfied)

        let (paceResult, secure) = try pace()
        // An unknown CAR: 6A88. PSO without Set DST: 6985. A terminal before its DV: 6A88 at Set DST.
        #expect(
            try secure.transmit(.mseSetDST(authorityReference: "DEUNKNOWN0001")).statusWord == .referenceDataNotFound)
        #expect(try secure.transmit(try .psoVerifyCertificate(pki.dv)).statusWord == .conditionsOfUseNotSatisfied)
        #expect(
            try secure.transmit(.mseSetDST(authorityReference: "DEDVTEST00001")).statusWord == .referenceDataNotFound)
        // A DV signed by another CVCA's key: 6300.
        let other = try LoopbackPKI()
        #expect(try secure.transmit(.mseSetDST(authorityReference: "DETESTCVCA00001")).statusWord == .success)
        #expect(try secure.transmit(try .psoVerifyCertificate(other.dv)).statusWord == .authenticationFailed)
        // Set AT for a CHR never imported: 6A88.
        let ephemeral = try ECKeyPair.generate(group: try ECGroup(.brainpoolP256r1))
        let template = TerminalAuthenticationTemplate(
            algorithm: .ecdsaSHA256, holderReference: "DEATTEST00001", auxiliaryData: nil,
            compressedEphemeralKey: ephemeral.publicKey.x)
        #expect(try secure.transmit(.mseSetAT(terminalAuthentication: template)).statusWord == .referenceDataNotFound)
        // EXTERNAL AUTHENTICATE without Set AT: 6985; GENERAL AUTHENTICATE for CA before TA: 6985.
        #expect(
            try secure.transmit(.externalAuthenticate(signature: [UInt8](repeating: 1, count: 64))).statusWord
                == .conditionsOfUseNotSatisfied)
        #expect(try secure.transmit(.mseSetAT(chipAuthentication: .ecdhAES128, keyID: 65)).statusWord == .success)
        #expect(
            try secure.transmit(.generalAuthenticate(chipAuthentication: ephemeral.publicKey)).statusWord
                == .conditionsOfUseNotSatisfied)
        // MSE:Set AT for CA with another key id: 6A88; another protocol: 6A80.
        #expect(
            try secure.transmit(.mseSetAT(chipAuthentication: .ecdhAES128, keyID: 1)).statusWord
                == .referenceDataNotFound)
        #expect(try secure.transmit(.mseSetAT(chipAuthentication: .ecdhAES256, keyID: 65)).statusWord == .wrongData)
        _ = paceResult
    }

    @Test func caWithAnotherKeyThanTAAnnouncedIs6A80() throws {
        let (paceResult, secure, ta, ephemeral) = try preparedTA()
        let challenge = try ta.getChallenge()
        try ta.authenticate(
            terminal: pki.terminal, idPICC: paceResult.idPICC, challenge: challenge, ephemeralKey: ephemeral.publicKey,
            auxiliaryData: nil,
            signer: KeyTerminalSigner(privateKey: pki.terminalKey.privateKey, algorithm: .ecdsaSHA256))
        let selection = try ChipAuthentication.select(from: SimulatorSecurityInfos.cardSecurityInfos())
        let another = try ECKeyPair.generate(group: selection.publicKey.group)
        #expect(throws: ChipAuthenticationError.refused(step: .generalAuthenticate, .wrongData)) {
            try ChipAuthentication(channel: secure).run(selection: selection, ephemeralKey: another)
        }
        #expect(!card.withContext { $0.session.eacAccess.chipAuthenticated })
    }

    @Test func anExpiredTerminalCertificateIsRefused() throws {
        let expired = try LoopbackPKI(terminalExpires: CalendarDate(year: 2026, month: 11, day: 21)!)
        card.withContext {
            $0.trustAnchors = [expired.cvca]
            $0.currentDate = LoopbackPKI.today
        }
        #expect(throws: TerminalAuthenticationError.refused(step: .verifyCertificate, .wrongData)) {
            _ = try preparedTA(chain: [expired.dv, expired.terminal])
        }
    }

    @Test func withoutAPACECHATThereIsNoTA() throws {
        let (_, secure, ta, ephemeral) = try preparedTA(chat: nil)
        _ = secure
        #expect(throws: TerminalAuthenticationError.refused(step: .setAT, .conditionsNotSatisfied)) {
            try ta.authenticate(
                terminal: pki.terminal, idPICC: [], challenge: [UInt8](repeating: 0, count: 8),
                ephemeralKey: ephemeral.publicKey, auxiliaryData: nil,
                signer: KeyTerminalSigner(privateKey: pki.terminalKey.privateKey, algorithm: .ecdsaSHA256))
        }
    }

    /// An eID client asks for the challenge in EAC1, before the server's certificates arrive.
    @Test func theChallengeMayComeBeforeTheCertificates() throws {
        let (paceResult, secure) = try pace()
        let ta = TerminalAuthentication(channel: secure)
        let challenge = try ta.getChallenge()
        try ta.importCertificates([pki.cvca, pki.dv, pki.terminal], cardTrustPoints: ["DETESTCVCA00001"])
        let ephemeral = try ECKeyPair.generate(group: try ECGroup(.brainpoolP256r1))
        try ta.authenticate(
            terminal: pki.terminal, idPICC: paceResult.idPICC, challenge: challenge, ephemeralKey: ephemeral.publicKey,
            auxiliaryData: nil,
            signer: KeyTerminalSigner(privateKey: pki.terminalKey.privateKey, algorithm: .ecdsaSHA256))
        #expect(card.withContext { $0.session.eacAccess.terminalAuthenticated })
        // A new PACE forgets TA: the access is gone and the imported terminal is unknown again.
        let (_, again) = try pace()
        #expect(card.withContext { $0.session.eacAccess } == EACAccess())
        #expect(
            try again.transmit(.mseSetDST(authorityReference: "DEDVTEST00001")).statusWord == .referenceDataNotFound)
    }

    @Test func authenticatedAuxiliaryDataIsSigned() throws {
        let (paceResult, _, ta, ephemeral) = try preparedTA()
        let aux = [UInt8](hex: "67177315060904007f00070301040253083230323230373236")!
        let challenge = try ta.getChallenge()
        let input = try ta.authenticate(
            terminal: pki.terminal, idPICC: paceResult.idPICC, challenge: challenge, ephemeralKey: ephemeral.publicKey,
            auxiliaryData: aux,
            signer: KeyTerminalSigner(privateKey: pki.terminalKey.privateKey, algorithm: .ecdsaSHA256))
        #expect(input.bytes.suffix(aux.count) == aux[...])
        let outcome = card.withContext {
            $0.session.protocolState[ExternalAuthenticateHandler.outcomeKey] as? TerminalAuthenticationOutcome
        }
        #expect(outcome?.auxiliaryData == aux)
    }
}
