import COpenPACE
import CardSimulator
import EAC
import EIDCrypto
import OpenPACEPeer
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
        OpenPACE.brainpoolP256r1PrivateKeyDER(scalar: try terminalKey.privateKey.rawScalar())
    }
}

/// Terminal and Chip Authentication across implementations: OpenPACE's terminal computations
/// (TA_STEP3-5, CA_STEP2/4/6) against eid's software card, and eid's terminal
/// (`TerminalAuthentication`, `ChipAuthentication`) against OpenPACE's card computations
/// (TA_STEP2/4/6, CA_STEP3-5).
@Suite("TA and CA with OpenPACE as the peer", .serialized)
struct OpenPACEEACPeerTests {
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

        // OpenPACE reads the chip's key from EF.CardSecurity with its own parser, holds the
        // terminal key, signs TA, checks CA's token and switches to the CA keys.
        let result = try terminal.runTerminalAndChipAuthentication(
            cvca: try pki.cvca.encoded, chain: [try pki.dv.encoded, try pki.terminal.encoded],
            terminalKey: try pki.terminalKeyDER())
        #expect(result.chipKey == SimulatorTestPKI.chipAuthenticationKey.publicKey.encoded)
        let access = card.withContext { $0.session.eacAccess }
        #expect(access.terminalAuthenticated && access.chipAuthenticated)
        #expect(access.effectiveCHAT?.accessRights == [.readDG4])

        // Secure messaging goes on under the CA keys from SSC 0, on both sides.
        let read = try terminal.transmitProtected(CommandAPDU(ins: 0xB0, p1: 0x9C, p2: 0, ne: 256))
        #expect(read.statusWord == .success && read.data == cardAccess)
    }

    @Test func eidsTerminalRunsTAAndCAAgainstOpenPACEsCard() throws {
        try runEidsTerminalAgainstOpenPACEsCard(ephemeral: try ECKeyPair.generate(group: try ECGroup(.brainpoolP256r1)))
    }

    /// Comp(PK_PCD) is the x-coordinate at field length (TR-03110-3 A.2.2.3, TR-03111 FE2OS), also
    /// when it begins with a zero byte, as for one random ephemeral key in 256: this key's x is
    /// 00 99 1A E8 …. (The random test above failed whenever its key was such a key.)
    @Test func eidsTerminalRunsTAAndCAWithAnEphemeralKeyWhoseXStartsWithZero() throws {
        let ephemeral = try ECKeyPair(group: try ECGroup(.brainpoolP256r1), privateScalar: [0x03, 0x58])
        try #require(ephemeral.publicKey.x.count == 32 && ephemeral.publicKey.x[0] == 0)
        try runEidsTerminalAgainstOpenPACEsCard(ephemeral: ephemeral)
    }

    private func runEidsTerminalAgainstOpenPACEsCard(ephemeral: ECKeyPair) throws {
        let pki = try PeerPKI()
        let card = try OpenPACEEACCard(cvca: pki.cvca, chipKey: SimulatorTestPKI.chipAuthenticationKey)
        let idPICC = try SecureRandom.bytes(32)
        card.idPICC = idPICC
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
    /// The byte length of a brainpoolP256r1 field element, the length of Comp(PK_PCD).
    static let fieldLength = 32
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
            // CA step 3 (the key is the one announced in TA), with OpenPACE's Comp brought to field
            // length: OpenPACE's own check, CA_STEP3_check_pcd_pubkey, compares against Comp
            // without its leading zero bytes (BN_bn2bin), so it refused eid's correct 32-byte
            // x-coordinate whenever that began with 00 (one key in 256).
            guard let comp = try OpenPACE.withBuffer(key, { OpenPACE.take(EAC_Comp(ctx, EAC_ID_CA, $0)) }),
                comp.count <= Self.fieldLength,
                [UInt8](repeating: 0, count: Self.fieldLength - comp.count) + comp == compressedKey,
                try OpenPACE.withBuffer(key, { CA_STEP4_compute_shared_secret(ctx, $0) }) == 1
            else {
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
