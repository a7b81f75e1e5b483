import EAC
import EIDCrypto
import SmartCard
import TestVectors
import Testing

/// Terminal Authentication v2: the BSI worked example reproduced, the command encodings, and
/// every rule of the card side (`TerminalAuthenticationCard`) with the status word it answers.
@Suite struct TerminalAuthenticationTests {
    static func workedExample() throws -> [String: String] { try Fixture.hexValues("eac_worked_example_bsi_ecdh") }

    /// The worked example's input: ID_PICC = x(PACE chip ephemeral key), r_PICC, Comp(CA terminal key), no aux.
    static func workedInput(_ v: [String: String]) throws -> TerminalAuthenticationSignatureInput {
        let group = try ECGroup(.brainpoolP256r1)
        let chip = try ECPoint(group: group, encoded: try v.bytes("eph_chip_public_key"))
        let terminal = try ECPoint(group: group, encoded: try v.bytes("ca_terminal_eph_public_key"))
        return TerminalAuthenticationSignatureInput(
            idPICC: chip.x, challenge: try v.bytes("ta_nonce_r_picc"),
            compressedEphemeralKey: TerminalAuthenticationSignatureInput.compress(terminal), auxiliaryData: nil)
    }

    static func workedChain(_ v: [String: String]) throws -> CVCertificateChain {
        let chain = try ["cvca_cert", "dv_cert", "terminal_cert"].map { try CVCertificate(encoded: try v.bytes($0)) }
        return try CVCertificateChain(verifying: chain, date: CalendarDate(year: 2010, month: 10, day: 1)!)
    }

    @Test func bsiWorkedExampleSignatureVerifiesOverTheInput() throws {
        let v = try Self.workedExample()
        let input = try Self.workedInput(v)
        #expect(input.bytes.count == 32 + 8 + 32)
        let chain = try Self.workedChain(v)
        let key = try chain.targetKey()
        #expect(key.group.curve == .brainpoolP512r1)
        let signature = try v.bytes("ta_signature")
        #expect(signature.count == 128)
        #expect(input.verify(signature, with: key, algorithm: .ecdsaSHA512))
        // One bit of the challenge changed, or aux data added: no longer verifies.
        var other = input
        other.challenge[0] ^= 1
        #expect(!other.verify(signature, with: key, algorithm: .ecdsaSHA512))
        other = input
        other.auxiliaryData = [0x67, 0x00]
        #expect(!other.verify(signature, with: key, algorithm: .ecdsaSHA512))

        // The PKCS#8 key of the example (its last 64 bytes are the scalar) signs inputs its
        // certificate's key verifies.
        let pkcs8 = try v.bytes("ta_pcd_private_key_pkcs8")
        let privateKey = try ECPrivateKey(group: key.group, scalar: Array(pkcs8.suffix(64)))
        let own = try KeyTerminalSigner(privateKey: privateKey, algorithm: .ecdsaSHA512).signature(for: input)
        #expect(input.verify(own, with: key, algorithm: .ecdsaSHA512))
    }

    @Test func bsiWorkedExampleOnTheCardSide() throws {
        let v = try Self.workedExample()
        let chain = try Self.workedChain(v).certificates
        var card = TerminalAuthenticationCard(
            trustAnchors: [chain[0]], currentDate: CalendarDate(year: 2010, month: 9, day: 1)!)
        for certificate in chain.dropFirst() {
            try card.setDST(data: CommandAPDU.mseSetDST(authorityReference: certificate.body.authorityReference).data)
            try card.verifyCertificate(bodyAndSignature: try certificate.bodyAndSignature)
        }
        let input = try Self.workedInput(v)
        let template = TerminalAuthenticationTemplate(
            algorithm: .ecdsaSHA512, holderReference: chain[2].body.holderReference, auxiliaryData: nil,
            compressedEphemeralKey: input.compressedEphemeralKey)
        let paceCHAT = CHAT(role: .terminal, rights: Set(AccessRight.allCases))
        try card.setAuthenticationTemplate(data: template.encoded, paceCHAT: paceCHAT)
        #expect(try card.getChallenge(length: 8, fixed: input.challenge) == input.challenge)
        let outcome = try card.externalAuthenticate(
            signature: try v.bytes("ta_signature"), idPICC: input.idPICC, paceCHAT: paceCHAT)
        #expect(outcome.effectiveCHAT.accessRights == [.readDG1, .canAllowed])
        #expect(outcome.compressedEphemeralKey == input.compressedEphemeralKey)
    }

    @Test func commandEncodings() throws {
        #expect(
            try CommandAPDU.mseSetDST(authorityReference: "DETESTeID00005").bytes.hexString
                == "002281b610830e4445544553546549443030303035")
        #expect(try CommandAPDU.getChallenge().bytes.hexString == "0084000008")
        #expect(try CommandAPDU.externalAuthenticate(signature: [1, 2]).bytes.hexString == "00820000020102")
        let aux = [UInt8](hex: "67177315060904007f00070301040253083230323230373236")!
        let template = TerminalAuthenticationTemplate(
            algorithm: .ecdsaSHA256, holderReference: "DEDEMOPAA00490", auxiliaryData: aux,
            compressedEphemeralKey: [UInt8](repeating: 0xAB, count: 32))
        let apdu = try CommandAPDU.mseSetAT(terminalAuthentication: template)
        #expect(
            apdu.bytes.hexString.hasPrefix(
                "002281a457800a04007f00070202020203830e444544454d4f5041413030343930" + aux.hexString + "9120"))
        #expect(try TerminalAuthenticationTemplate(data: apdu.data) == template)
        // Other order, an unknown object, a missing 91: refused.
        for bad in [
            "830141800a04007f000702020202039101aa", "800a04007f00070202020203830141",
            "800a04007f000702020202038301419101aa0100",
        ] {
            #expect(throws: TerminalAuthenticationError.malformedTemplate) {
                try TerminalAuthenticationTemplate(data: [UInt8](hex: bad)!)
            }
        }
        let pki = try TestPKI()
        let pso = try CommandAPDU.psoVerifyCertificate(pki.terminal)
        #expect(Array(pso.bytes.prefix(4)) == [0x00, 0x2A, 0x00, 0xBE])
        #expect(
            pso.data == (try pki.terminal.encoded).dropFirst(try pki.terminal.encoded.count - pso.data.count).map { $0 }
        )
        #expect(EACCommandOutcome(statusWord: StatusWord(rawValue: 0x6300)) == .verificationFailed)
    }

    @Test func certificatesToSendStartAfterTheCardsTrustPoint() throws {
        let pki = try TestPKI()
        let chain = [pki.cvca, pki.dv, pki.terminal]
        #expect(
            try TerminalAuthentication.certificatesToSend(chain: chain, cardTrustPoints: ["DETESTCVCA00001"]) == [
                pki.dv, pki.terminal,
            ])
        #expect(
            try TerminalAuthentication.certificatesToSend(
                chain: [pki.dv, pki.terminal], cardTrustPoints: ["X", "DETESTCVCA00001"]) == [pki.dv, pki.terminal])
        #expect(throws: TerminalAuthenticationError.noPathToCardTrustPoint(cars: ["DETESTeID00005"])) {
            try TerminalAuthentication.certificatesToSend(chain: chain, cardTrustPoints: ["DETESTeID00005"])
        }
    }
}

/// The card-side rules of `TerminalAuthenticationCard`, each with its status word.
@Suite struct TerminalAuthenticationCardRuleTests {
    let pki: TestPKI
    let paceCHAT = CHAT(role: .terminal, rights: [.readDG4, .readDG5, .readDG8, .readDG1])
    let ephemeral: ECKeyPair
    let idPICC = [UInt8](repeating: 0x11, count: 32)

    init() throws {
        pki = try TestPKI()
        ephemeral = try ECKeyPair.generate(group: try ECGroup(.brainpoolP256r1))
    }

    func card(date: CalendarDate = TestPKI.today) -> TerminalAuthenticationCard {
        TerminalAuthenticationCard(trustAnchors: [pki.cvca], currentDate: date)
    }

    func sw(_ body: () throws -> Void) -> StatusWord? {
        do {
            try body()
            return .success
        } catch CardError.statusWord(let sw) { return sw } catch { return nil }
    }

    func importChain(_ card: inout TerminalAuthenticationCard, _ chain: [CVCertificate]) throws {
        for c in chain {
            try card.setDST(authorityReference: c.body.authorityReference)
            try card.verifyCertificate(bodyAndSignature: try c.bodyAndSignature)
        }
    }

    var template: TerminalAuthenticationTemplate {
        TerminalAuthenticationTemplate(
            algorithm: .ecdsaSHA256, holderReference: pki.terminal.body.holderReference, auxiliaryData: nil,
            compressedEphemeralKey: ephemeral.publicKey.x)
    }

    /// A terminal certificate beyond its DV: PSO:Verify accepts it (no 6A80) and the effective
    /// CHAT is PACE's AND the CVCA's AND the DV's AND the terminal's.
    @Test func aTerminalBeyondItsDVIsAcceptedWithTheANDOfAllCHATs() throws {
        let pki = try TestPKI(terminalRights: [.readDG4, .readDG5, .readDG8, .readDG9, .readDG1])
        let paceCHAT = CHAT(role: .terminal, rights: [.readDG4, .readDG8, .readDG9, .readDG1])
        var c = TerminalAuthenticationCard(trustAnchors: [pki.cvca], currentDate: TestPKI.today)
        try importChain(&c, [pki.dv, pki.terminal])
        let template = TerminalAuthenticationTemplate(
            algorithm: .ecdsaSHA256, holderReference: pki.terminal.body.holderReference, auxiliaryData: nil,
            compressedEphemeralKey: ephemeral.publicKey.x)
        try c.setAuthenticationTemplate(data: template.encoded, paceCHAT: paceCHAT)
        let challenge = try c.getChallenge(length: 8)
        let input = TerminalAuthenticationSignatureInput(
            idPICC: idPICC, challenge: challenge, compressedEphemeralKey: ephemeral.publicKey.x, auxiliaryData: nil)
        let signature = try input.sign(with: pki.terminalKey.privateKey, algorithm: .ecdsaSHA256)
        let outcome = try c.externalAuthenticate(signature: signature, idPICC: idPICC, paceCHAT: paceCHAT)
        // DG9 is the terminal's and PACE's but not the DV's; DG5 is not PACE's.
        #expect(outcome.effectiveCHAT.accessRights == [.readDG1, .readDG4, .readDG8])
    }

    @Test func aGoodRunGivesTheIntersectionOfPACEAndChain() throws {
        var c = card()
        try importChain(&c, [pki.dv, pki.terminal])
        try c.setAuthenticationTemplate(data: template.encoded, paceCHAT: paceCHAT)
        let challenge = try c.getChallenge(length: 8)
        let input = TerminalAuthenticationSignatureInput(
            idPICC: idPICC, challenge: challenge, compressedEphemeralKey: ephemeral.publicKey.x, auxiliaryData: nil)
        let signature = try input.sign(with: pki.terminalKey.privateKey, algorithm: .ecdsaSHA256)
        let outcome = try c.externalAuthenticate(signature: signature, idPICC: idPICC, paceCHAT: paceCHAT)
        // PACE asked DG1, 4, 5, 8; the terminal has 4, 5, 8 (DG1 is the DV's but not the terminal's).
        #expect(outcome.effectiveCHAT.accessRights == [.readDG4, .readDG5, .readDG8])
        #expect(outcome.effectiveCHAT.role == .terminal)
        // The domestic DV's and terminal's effective dates moved the card's date forward.
        #expect(c.currentDate == TestPKI.today)
        var early = card(date: CalendarDate(year: 2026, month: 6, day: 1)!)
        try importChain(&early, [pki.dv, pki.terminal])
        #expect(early.currentDate == pki.terminal.body.effectiveDate)
    }

    @Test func setDSTNeedsAKnownReference() {
        var c = card()
        #expect(sw { try c.setDST(authorityReference: "DEUNKNOWN00001") } == .referenceDataNotFound)
        #expect(sw { try c.setDST(data: [0x84, 0x01, 0x41]) } == .wrongData)
        // The terminal's issuer is not known before the DV is imported.
        #expect(sw { try c.setDST(authorityReference: pki.dv.body.holderReference) } == .referenceDataNotFound)
    }

    @Test func verifyCertificateRules() throws {
        var c = card()
        // Without MSE:Set DST: 6985.
        #expect(
            sw { try c.verifyCertificate(bodyAndSignature: try pki.dv.bodyAndSignature) }
                == .conditionsOfUseNotSatisfied)
        // A certificate whose CAR is not the selected key: 6A80. Garbage: 6A80.
        try c.setDST(authorityReference: pki.cvca.body.holderReference)
        #expect(sw { try c.verifyCertificate(bodyAndSignature: try pki.terminal.bodyAndSignature) } == .wrongData)
        try c.setDST(authorityReference: pki.cvca.body.holderReference)
        #expect(sw { try c.verifyCertificate(bodyAndSignature: [0x7F, 0x4E, 0x00]) } == .wrongData)
        // A wrong signature: 6300, and nothing imported.
        var forged = try pki.dv.bodyAndSignature
        forged[forged.count - 1] ^= 0x01
        try c.setDST(authorityReference: pki.cvca.body.holderReference)
        #expect(sw { try c.verifyCertificate(bodyAndSignature: forged) } == .authenticationFailed)
        #expect(sw { try c.setDST(authorityReference: pki.dv.body.holderReference) } == .referenceDataNotFound)
        // Expired on the card's date: 6A80.
        var late = card(date: CalendarDate(year: 2027, month: 3, day: 1)!)
        try late.setDST(authorityReference: pki.cvca.body.holderReference)
        #expect(sw { try late.verifyCertificate(bodyAndSignature: try pki.dv.bodyAndSignature) } == .wrongData)
        // A terminal certificate with more rights than its DV is accepted (TA grants the AND).
        let greedy = try TestPKI(terminalRights: [.readDG4, .readDG21])
        var g = TerminalAuthenticationCard(trustAnchors: [greedy.cvca], currentDate: TestPKI.today)
        try importChain(&g, [greedy.dv])
        try g.setDST(authorityReference: greedy.dv.body.holderReference)
        #expect(sw { try g.verifyCertificate(bodyAndSignature: try greedy.terminal.bodyAndSignature) } == .success)
        // A terminal certificate straight under the CVCA (wrong role for its issuer): 6A80.
        let direct = try CVCertificateBody(
            authorityReference: pki.cvca.body.holderReference, publicKey: pki.terminal.body.publicKey,
            holderReference: "DEATDIRECT0001", chat: pki.terminal.body.chat, effectiveDate: TestPKI.today,
            expirationDate: CalendarDate(year: 2026, month: 12, day: 31)!
        ).signed(by: pki.cvcaKey.privateKey, algorithm: .ecdsaSHA256)
        try g.setDST(authorityReference: greedy.cvca.body.holderReference)
        var d = card()
        try d.setDST(authorityReference: pki.cvca.body.holderReference)
        #expect(sw { try d.verifyCertificate(bodyAndSignature: try direct.bodyAndSignature) } == .wrongData)
    }

    @Test func setATAndExternalAuthenticateRules() throws {
        var c = card()
        try importChain(&c, [pki.dv, pki.terminal])
        // No PACE CHAT: 6985. Unknown CHR: 6A88. The DV is not a terminal: 6A88. Wrong algorithm: 6A80.
        #expect(
            sw { try c.setAuthenticationTemplate(data: template.encoded, paceCHAT: nil) }
                == .conditionsOfUseNotSatisfied)
        var t = template
        t.holderReference = "DEATUNKNOWN01"
        #expect(sw { try c.setAuthenticationTemplate(data: t.encoded, paceCHAT: paceCHAT) } == .referenceDataNotFound)
        t.holderReference = pki.dv.body.holderReference
        #expect(sw { try c.setAuthenticationTemplate(data: t.encoded, paceCHAT: paceCHAT) } == .referenceDataNotFound)
        t = template
        t.algorithm = .ecdsaSHA512
        #expect(sw { try c.setAuthenticationTemplate(data: t.encoded, paceCHAT: paceCHAT) } == .wrongData)
        #expect(sw { try c.setAuthenticationTemplate(data: [0x80, 0x00], paceCHAT: paceCHAT) } == .wrongData)
        // EXTERNAL AUTHENTICATE without Set AT: 6985; GET CHALLENGE with Le 4: 6700.
        #expect(
            sw { _ = try c.externalAuthenticate(signature: [1], idPICC: idPICC, paceCHAT: paceCHAT) }
                == .conditionsOfUseNotSatisfied)
        #expect(sw { _ = try c.getChallenge(length: 4) } == .wrongLength)
        // Set AT without GET CHALLENGE: 6985.
        try c.setAuthenticationTemplate(data: template.encoded, paceCHAT: paceCHAT)
        #expect(
            sw { _ = try c.externalAuthenticate(signature: [1], idPICC: idPICC, paceCHAT: paceCHAT) }
                == .conditionsOfUseNotSatisfied)
        // A signature by another key: 6300, and the next attempt must start again (6985).
        try c.setAuthenticationTemplate(data: template.encoded, paceCHAT: paceCHAT)
        let challenge = try c.getChallenge(length: 8)
        let input = TerminalAuthenticationSignatureInput(
            idPICC: idPICC, challenge: challenge, compressedEphemeralKey: ephemeral.publicKey.x, auxiliaryData: nil)
        let wrong = try input.sign(with: pki.dvKey.privateKey, algorithm: .ecdsaSHA256)
        #expect(
            sw { _ = try c.externalAuthenticate(signature: wrong, idPICC: idPICC, paceCHAT: paceCHAT) }
                == .authenticationFailed)
        let right = try input.sign(with: pki.terminalKey.privateKey, algorithm: .ecdsaSHA256)
        #expect(
            sw { _ = try c.externalAuthenticate(signature: right, idPICC: idPICC, paceCHAT: paceCHAT) }
                == .conditionsOfUseNotSatisfied)
    }

    /// A link certificate from `issuer` (its key `issuerKey`) to a new CVCA `chr` with a fresh key.
    func link(
        from issuer: CVCertificate, key issuerKey: ECKeyPair, to chr: String, effective: CalendarDate
    ) throws -> (CVCertificate, ECKeyPair) {
        let newKey = try ECKeyPair.generate(group: try ECGroup(.brainpoolP256r1))
        let certificate = try CVCertificateBody(
            authorityReference: issuer.body.holderReference,
            publicKey: try CVPublicKey(
                algorithm: .ecdsaSHA256, point: newKey.publicKey, includingDomainParameters: true),
            holderReference: chr, chat: pki.cvca.body.chat, effectiveDate: effective,
            expirationDate: CalendarDate(year: effective.year + 3, month: effective.month, day: effective.day)!
        ).signed(by: issuerKey.privateKey, algorithm: .ecdsaSHA256)
        return (certificate, newKey)
    }

    /// Two rollovers: the trust point moves on each time, the card keeps the newest two, and the
    /// oldest can no longer be selected (6A88).
    @Test func theTrustPointMovesOnAndTheCardKeepsTwo() throws {
        let (second, secondKey) = try link(
            from: pki.cvca, key: pki.cvcaKey, to: "DETESTCVCA00002",
            effective: CalendarDate(year: 2026, month: 11, day: 22)!)
        let (third, _) = try link(
            from: second, key: secondKey, to: "DETESTCVCA00003",
            effective: CalendarDate(year: 2026, month: 11, day: 24)!)
        var c = card(date: CalendarDate(year: 2026, month: 11, day: 1)!)
        try importChain(&c, [second, third])
        #expect(c.trustPointReferences == ["DETESTCVCA00003", "DETESTCVCA00002"])
        #expect(Set(c.trustAnchors.map(\.body.holderReference)) == ["DETESTCVCA00002", "DETESTCVCA00003"])
        #expect(c.currentDate == CalendarDate(year: 2026, month: 11, day: 24)!)
        #expect(sw { try c.setDST(authorityReference: "DETESTCVCA00001") } == .referenceDataNotFound)
        #expect(sw { try c.setDST(authorityReference: "DETESTCVCA00002") } == .success)
    }

    /// A link certificate older than the current trust point verifies (for this session's chain)
    /// but moves no trust point back.
    @Test func anOlderLinkCertificateMovesNothingBack() throws {
        let (newer, _) = try link(
            from: pki.cvca, key: pki.cvcaKey, to: "DETESTCVCA00003",
            effective: CalendarDate(year: 2026, month: 11, day: 24)!)
        let (older, _) = try link(
            from: pki.cvca, key: pki.cvcaKey, to: "DETESTCVCA00002",
            effective: CalendarDate(year: 2026, month: 11, day: 2)!)
        var c = card(date: CalendarDate(year: 2026, month: 11, day: 1)!)
        try importChain(&c, [newer])
        try importChain(&c, [older])
        #expect(c.trustPointReferences == ["DETESTCVCA00003", "DETESTCVCA00001"])
        #expect(sw { try c.setDST(authorityReference: "DETESTCVCA00002") } == .success, "imported in this session")
    }

    @Test func aLinkCertificateBecomesATrustAnchor() throws {
        let newKey = try ECKeyPair.generate(group: try ECGroup(.brainpoolP256r1))
        let link = try CVCertificateBody(
            authorityReference: pki.cvca.body.holderReference,
            publicKey: try CVPublicKey(
                algorithm: .ecdsaSHA256, point: newKey.publicKey, includingDomainParameters: true),
            holderReference: "DETESTCVCA00002", chat: pki.cvca.body.chat,
            effectiveDate: CalendarDate(year: 2026, month: 11, day: 22)!,
            expirationDate: CalendarDate(year: 2029, month: 11, day: 22)!
        ).signed(by: pki.cvcaKey.privateKey, algorithm: .ecdsaSHA256)
        var c = card(date: CalendarDate(year: 2026, month: 11, day: 1)!)
        try importChain(&c, [link])
        #expect(c.trustAnchors.map(\.body.holderReference) == ["DETESTCVCA00001", "DETESTCVCA00002"])
        #expect(c.trustPointReferences == ["DETESTCVCA00002", "DETESTCVCA00001"])
        #expect(c.currentDate == CalendarDate(year: 2026, month: 11, day: 22)!)
    }
}
