import COpenPACE
import CardSimulator
import EAC
import EIDCrypto
import SmartCard
import Testing

/// A CVCA → DV → terminal PKI from eid's library (brainpoolP256r1, ECDSA-SHA-256) for the TA peers.
struct PeerPKI {
    let cvca: CVCertificate
    let dv: CVCertificate
    let terminal: CVCertificate
    let terminalKey: ECKeyPair

    init() throws {
        let group = try ECGroup(.brainpoolP256r1)
        let cvcaKey = try ECKeyPair.generate(group: group)
        let dvKey = try ECKeyPair.generate(group: group)
        terminalKey = try ECKeyPair.generate(group: group)
        let d = { (y: Int, m: Int, day: Int) in CalendarDate(year: y, month: m, day: day)! }
        cvca = try CVCertificateBody(
            authorityReference: "DEPEERCVCA00001",
            publicKey: try CVPublicKey(
                algorithm: .ecdsaSHA256, point: cvcaKey.publicKey, includingDomainParameters: true),
            holderReference: "DEPEERCVCA00001", chat: CHAT(role: .cvca, rights: Set(AccessRight.allCases)),
            effectiveDate: d(2026, 1, 1), expirationDate: d(2029, 1, 1)
        ).signed(by: cvcaKey.privateKey, algorithm: .ecdsaSHA256)
        dv = try CVCertificateBody(
            authorityReference: "DEPEERCVCA00001",
            publicKey: try CVPublicKey(
                algorithm: .ecdsaSHA256, point: dvKey.publicKey, includingDomainParameters: false),
            holderReference: "DEPEERDV00001",
            chat: CHAT(role: .dvOfficialDomestic, rights: [.readDG4, .readDG5, .readDG8]),
            effectiveDate: d(2026, 11, 1), expirationDate: d(2027, 2, 1)
        ).signed(by: cvcaKey.privateKey, algorithm: .ecdsaSHA256)
        terminal = try CVCertificateBody(
            authorityReference: "DEPEERDV00001",
            publicKey: try CVPublicKey(
                algorithm: .ecdsaSHA256, point: terminalKey.publicKey, includingDomainParameters: false),
            holderReference: "DEPEERAT00001", chat: CHAT(role: .terminal, rights: [.readDG4, .readDG5]),
            effectiveDate: d(2026, 11, 20), expirationDate: d(2026, 12, 20)
        ).signed(by: dvKey.privateKey, algorithm: .ecdsaSHA256)
    }

    /// The terminal key as an RFC 5915 ECPrivateKey on brainpoolP256r1, for OpenPACE's d2i_AutoPrivateKey.
    func terminalKeyDER() throws -> [UInt8] {
        let scalar = try terminalKey.privateKey.rawScalar()
        let curve: [UInt8] = [0xA0, 0x0B, 0x06, 0x09, 0x2B, 0x24, 0x03, 0x03, 0x02, 0x08, 0x01, 0x01, 0x07]
        let body: [UInt8] = [0x02, 0x01, 0x01, 0x04, 0x20] + scalar + curve
        return [0x30, UInt8(body.count)] + body
    }
}

/// Terminal and Chip Authentication across implementations: OpenPACE's terminal computations
/// (TA_STEP3-5, CA_STEP2/4/6) against eid's software card, and eid's terminal
/// (`TerminalAuthentication`, `ChipAuthentication`) against OpenPACE's card computations
/// (TA_STEP2/4/6, CA_STEP3-5).
@Suite("TA and CA with OpenPACE as the peer", .serialized)
struct OpenPACEEACPeerTests {
    func withBuf<T>(_ bytes: [UInt8], _ body: (UnsafeMutablePointer<BUF_MEM>) throws -> T) throws -> T {
        try OpenPACE.withBuffer(bytes, body)
    }

    @Test func openPACEsTerminalRunsTAAndCAAgainstTheSoftwareCard() throws {
        OpenPACE.initialize()
        let pki = try PeerPKI()
        let card = SimulatedEIDCard()
        card.withContext {
            $0.trustAnchors = [pki.cvca]
            $0.currentDate = CalendarDate(year: 2026, month: 11, day: 23)!
        }
        let channel = SimulatedCardChannel(card: card)
        let cardAccess = try SimulatedCardPeerTests.readCardAccess(channel)
        let terminal = try OpenPACETerminal(channel: channel, cardAccess: cardAccess, password: "123456")
        terminal.chat = CHAT(role: .terminal, rights: [.readDG4, .readDG8]).encoded
        try terminal.establish()
        let ctx = terminal.ctx

        // EF.CardSecurity, and the chip's key from it by OpenPACE (its own parser; the test CSCA is
        // not in OpenPACE's store, so passive authentication is eid's test, not this one's).
        let cardSecurity = try terminal.transmitProtected(CommandAPDU(ins: 0xB0, p1: 0x9D, p2: 0, ne: 65536)).data
        CA_disable_passive_authentication(ctx)
        let chipKey = try #require(
            OpenPACE.take(cardSecurity.withUnsafeBufferPointer { CA_get_pubkey(ctx, $0.baseAddress, $0.count) }))
        #expect(chipKey == SimulatorTestPKI.chipAuthenticationKey.publicKey.encoded)
        #expect(EAC_CTX_init_ca(ctx, eid_nid_ca_ecdh_aes128(), 13) == 1)

        // TA: OpenPACE holds the terminal key; the CVCA sets its signature algorithm (ECDSA-SHA-256).
        let keyDER = try pki.terminalKeyDER()
        let cvcaDER = try pki.cvca.encoded
        let initialized = keyDER.withUnsafeBufferPointer { k in
            cvcaDER.withUnsafeBufferPointer { c in EAC_CTX_init_ta(ctx, k.baseAddress, k.count, c.baseAddress, c.count)
            }
        }
        #expect(initialized == 1)
        TA_disable_checks(ctx)
        for certificate in [pki.dv, pki.terminal] {
            let der = try certificate.encoded
            let car = Array(certificate.body.authorityReference.utf8)
            let dst = CommandAPDU(ins: 0x22, p1: 0x81, p2: 0xB6, data: PeerTLV(tag: 0x83, value: car).encoded)
            #expect(try terminal.transmitProtected(dst).statusWord == .success)
            let body = Array(der.dropFirst(der[2] == 0x82 ? 5 : der[2] == 0x81 ? 4 : 3))
            #expect(
                try terminal.transmitProtected(CommandAPDU(ins: 0x2A, p1: 0x00, p2: 0xBE, data: body)).statusWord
                    == .success)
        }
        _ = try #require(OpenPACE.take(TA_STEP3_generate_ephemeral_key(ctx)))
        // The announced key at field length (OpenPACE's own Comp drops leading zero bytes).
        let ephemeral = try #require(OpenPACE.take(CA_STEP2_get_eph_pubkey(ctx)))
        let compressed = Array(ephemeral[1...32])
        let challenge = try terminal.transmitProtected(CommandAPDU(ins: 0x84, p1: 0, p2: 0, ne: 8))
        #expect(challenge.statusWord == .success && challenge.data.count == 8)
        #expect(try withBuf(challenge.data) { TA_STEP4_set_nonce(ctx, $0) } == 1)
        let taOID = try #require(OpenPACE.objectIdentifierContent(nid: eid_nid_ta_ecdsa_sha256()))
        let setAT = CommandAPDU(
            ins: 0x22, p1: 0x81, p2: 0xA4,
            data: PeerTLV(tag: 0x80, value: taOID).encoded
                + PeerTLV(tag: 0x83, value: Array(pki.terminal.body.holderReference.utf8)).encoded
                + PeerTLV(tag: 0x91, value: compressed).encoded)
        #expect(try terminal.transmitProtected(setAT).statusWord == .success)
        let idPICC = Array(terminal.piccEphemeralKey[1...32])
        let signature = try #require(
            try withBuf(compressed) { c in try withBuf(idPICC) { i in OpenPACE.take(TA_STEP5_sign(ctx, c, i, nil)) } })
        #expect(
            try terminal.transmitProtected(CommandAPDU(ins: 0x82, p1: 0, p2: 0, data: signature)).statusWord == .success
        )
        #expect(card.withContext { $0.session.eacAccess.terminalAuthenticated })
        #expect(card.withContext { $0.session.eacAccess.effectiveCHAT?.accessRights } == [.readDG4])

        // CA: OpenPACE checks the card's token and derives the keys.
        let caOID = try #require(OpenPACE.objectIdentifierContent(nid: eid_nid_ca_ecdh_aes128()))
        let caSetAT = CommandAPDU(
            ins: 0x22, p1: 0x41, p2: 0xA4,
            data: PeerTLV(tag: 0x80, value: caOID).encoded + PeerTLV(tag: 0x84, value: [0x41]).encoded)
        #expect(try terminal.transmitProtected(caSetAT).statusWord == .success)
        let ga = try terminal.transmitProtected(
            CommandAPDU(
                ins: 0x86, p1: 0, p2: 0,
                data: PeerTLV(tag: 0x7C, value: PeerTLV(tag: 0x80, value: ephemeral).encoded).encoded, ne: 256))
        #expect(ga.statusWord == .success)
        let outer = try PeerTLV.parseAll(ga.data)
        let inner = try PeerTLV.parseAll(try #require(outer.first).value)
        let nonce = try #require(inner.first { $0.tag == 0x81 }?.value)
        let token = try #require(inner.first { $0.tag == 0x82 }?.value)
        #expect(try withBuf(chipKey) { CA_STEP4_compute_shared_secret(ctx, $0) } == 1)
        #expect(try withBuf(nonce) { n in try withBuf(token) { t in CA_STEP6_derive_keys(ctx, n, t) } } == 1)
        #expect(card.withContext { $0.session.eacAccess.chipAuthenticated })

        // Secure messaging goes on under the CA keys from SSC 0, on both sides.
        try terminal.switchToChipAuthenticationKeys()
        let read = try terminal.transmitProtected(CommandAPDU(ins: 0xB0, p1: 0x9C, p2: 0, ne: 256))
        #expect(read.statusWord == .success && read.data == cardAccess)
    }

    @Test func eidsTerminalRunsTAAndCAAgainstOpenPACEsCard() throws {
        let pki = try PeerPKI()
        let card = try OpenPACEEACCard(cvca: pki.cvca, chipKey: SimulatorTestPKI.chipAuthenticationKey)
        let idPICC = try SecureRandom.bytes(32)
        card.idPICC = idPICC
        let ephemeral = try ECKeyPair.generate(group: try ECGroup(.brainpoolP256r1))
        let ta = TerminalAuthentication(channel: card)
        let aux = [UInt8](hex: "67177315060904007f00070301040253083230323230373236")!
        try ta.run(
            chain: [pki.cvca, pki.dv, pki.terminal], cardTrustPoints: ["DEPEERCVCA00001"], idPICC: idPICC,
            ephemeralKey: ephemeral.publicKey, auxiliaryData: aux,
            signer: KeyTerminalSigner(privateKey: pki.terminalKey.privateKey, algorithm: .ecdsaSHA256))
        #expect(card.terminalAuthenticated)

        let selection = try ChipAuthentication.select(from: SimulatorSecurityInfos.cardSecurityInfos())
        let result = try ChipAuthentication(channel: card).run(selection: selection, ephemeralKey: ephemeral)
        let openPACEKeys = try #require(card.chipAuthenticationKeys)
        #expect(result.sessionKeys.encryption == openPACEKeys.encryption)
        #expect(result.sessionKeys.mac == openPACEKeys.mac)
    }

    @Test func openPACEsCardRefusesAWrongTASignatureFromEid() throws {
        let pki = try PeerPKI()
        let card = try OpenPACEEACCard(cvca: pki.cvca, chipKey: SimulatorTestPKI.chipAuthenticationKey)
        card.idPICC = try SecureRandom.bytes(32)
        let ephemeral = try ECKeyPair.generate(group: try ECGroup(.brainpoolP256r1))
        let other = try ECPrivateKey(randomIn: try ECGroup(.brainpoolP256r1))
        #expect(throws: TerminalAuthenticationError.refused(step: .externalAuthenticate, .verificationFailed)) {
            try TerminalAuthentication(channel: card).run(
                chain: [pki.cvca, pki.dv, pki.terminal], cardTrustPoints: ["DEPEERCVCA00001"], idPICC: card.idPICC,
                ephemeralKey: ephemeral.publicKey, signer: KeyTerminalSigner(privateKey: other, algorithm: .ecdsaSHA256)
            )
        }
        #expect(!card.terminalAuthenticated)
    }
}

/// The card side of TA and CA computed by OpenPACE (TA_STEP2 import, TA_STEP4 nonce, TA_STEP6
/// verify; CA_STEP3-5), behind plain APDUs parsed with `PeerTLV`. No secure messaging: the
/// protocols themselves are under test.
final class OpenPACEEACCard: CardChannel {
    let supportsExtendedLength = true
    private let ctx: UnsafeMutablePointer<EAC_CTX>
    var idPICC: [UInt8] = []
    private var compressedKey: [UInt8]?
    private var auxiliaryData: [UInt8]?
    private(set) var terminalAuthenticated = false
    private(set) var chipAuthenticationKeys: (encryption: [UInt8], mac: [UInt8])?

    init(cvca: CVCertificate, chipKey: ECKeyPair) throws {
        OpenPACE.initialize()
        guard let ctx = EAC_CTX_new() else { throw OpenPACE.Failure(function: "EAC_CTX_new") }
        self.ctx = ctx
        let der = try cvca.encoded
        guard der.withUnsafeBufferPointer({ EAC_CTX_init_ta(ctx, nil, 0, $0.baseAddress, $0.count) }) == 1 else {
            throw OpenPACE.Failure(function: "EAC_CTX_init_ta")
        }
        TA_disable_checks(ctx)
        guard EAC_CTX_init_ca(ctx, eid_nid_ca_ecdh_aes128(), 13) == 1 else {
            throw OpenPACE.Failure(function: "EAC_CTX_init_ca")
        }
        let scalar = try chipKey.privateKey.rawScalar()
        let pub = chipKey.publicKey.encoded
        let set = scalar.withUnsafeBufferPointer { s in
            pub.withUnsafeBufferPointer { p in CA_set_key(ctx, s.baseAddress, s.count, p.baseAddress, p.count) }
        }
        guard set == 1 else { throw OpenPACE.Failure(function: "CA_set_key") }
    }

    deinit { EAC_CTX_clear_free(ctx) }

    func transmit(_ command: CommandAPDU) throws -> ResponseAPDU {
        defer { ERR_clear_error() }
        let sw = { (raw: UInt16) in ResponseAPDU(statusWord: StatusWord(rawValue: raw)) }
        switch (command.ins, command.p1, command.p2) {
        case (0x22, 0x81, 0xB6): return sw(0x9000)  // OpenPACE follows the chain itself
        case (0x2A, 0x00, 0xBE):
            let der = PeerTLV(tag: 0x7F21, value: command.data).encoded
            let ok = der.withUnsafeBufferPointer { TA_STEP2_import_certificate(ctx, $0.baseAddress, $0.count) }
            return sw(ok == 1 ? 0x9000 : 0x6300)
        case (0x22, 0x81, 0xA4):
            guard let objects = try? PeerTLV.parseAll(command.data) else { return sw(0x6A80) }
            compressedKey = objects.first { $0.tag == 0x91 }?.value
            auxiliaryData = objects.first { $0.tag == 0x67 }?.encoded
            return sw(compressedKey == nil ? 0x6A80 : 0x9000)
        case (0x84, 0x00, 0x00):
            guard let nonce = OpenPACE.take(TA_STEP4_get_nonce(ctx)) else { return sw(0x6F00) }
            return ResponseAPDU(data: nonce, statusWord: .success)
        case (0x82, 0x00, 0x00):
            guard let compressedKey else { return sw(0x6985) }
            let verified = try OpenPACE.withBuffer(compressedKey) { c in
                try OpenPACE.withBuffer(idPICC) { i in
                    try OpenPACE.withBuffer(command.data) { s in
                        if let aux = auxiliaryData {
                            return try OpenPACE.withBuffer(aux) { TA_STEP6_verify(ctx, c, i, $0, s) }
                        }
                        return TA_STEP6_verify(ctx, c, i, nil, s)
                    }
                }
            }
            terminalAuthenticated = verified == 1
            return sw(verified == 1 ? 0x9000 : 0x6300)
        case (0x22, 0x41, 0xA4): return sw(0x9000)
        case (0x86, 0x00, 0x00):
            guard terminalAuthenticated, let compressedKey,
                let outer = try? PeerTLV.parseAll(command.data), outer.count == 1, outer[0].tag == 0x7C,
                let inner = try? PeerTLV.parseAll(outer[0].value),
                let key = inner.first(where: { $0.tag == 0x80 })?.value
            else { return sw(0x6985) }
            let matches = try OpenPACE.withBuffer(compressedKey) { c in
                try OpenPACE.withBuffer(key) { CA_STEP3_check_pcd_pubkey(ctx, c, $0) }
            }
            guard matches == 1, try OpenPACE.withBuffer(key, { CA_STEP4_compute_shared_secret(ctx, $0) }) == 1 else {
                return sw(0x6A80)
            }
            var nonce: UnsafeMutablePointer<BUF_MEM>? = nil
            var token: UnsafeMutablePointer<BUF_MEM>? = nil
            guard try OpenPACE.withBuffer(key, { CA_STEP5_derive_keys(ctx, $0, &nonce, &token) }) == 1,
                let n = OpenPACE.take(nonce), let t = OpenPACE.take(token),
                let enc = OpenPACE.copy(eid_ca_k_enc(ctx)), let mac = OpenPACE.copy(eid_ca_k_mac(ctx))
            else { return sw(0x6F00) }
            chipAuthenticationKeys = (enc, mac)
            let data = PeerTLV(
                tag: 0x7C, value: PeerTLV(tag: 0x81, value: n).encoded + PeerTLV(tag: 0x82, value: t).encoded)
            return ResponseAPDU(data: data.encoded, statusWord: .success)
        default: return sw(0x6D00)
        }
    }
}
