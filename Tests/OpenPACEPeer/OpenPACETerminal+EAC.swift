import COpenPACE
import SmartCard

/// Terminal and Chip Authentication version 2, terminal side, computed by OpenPACE (TA_STEP3-5,
/// CA_STEP2/4/6) over the secure messaging of an established `OpenPACETerminal`. The APDUs are
/// laid out here with `PeerTLV`, not with eid's command builders, so the peer shares no code with
/// eid beyond the `CardChannel` it speaks through (in process, or pcscd via PCSC).
extension OpenPACETerminal {
    /// The step of TA or CA whose command the card refused.
    public enum EACStep: Equatable, Sendable {
        case readCardSecurity, setDST, verifyCertificate, getChallenge, setAT, externalAuthenticate
        case chipAuthenticationSetAT, generalAuthenticate
    }

    /// The card refused a command of TA or CA with this status word.
    public struct EACRefusal: Error, Equatable {
        public let step: EACStep
        public let statusWord: StatusWord

        public init(step: EACStep, statusWord: StatusWord) {
            self.step = step
            self.statusWord = statusWord
        }
    }

    /// What TA and CA leave with the terminal.
    public struct EACResult {
        /// EF.CardSecurity as read.
        public let cardSecurity: [UInt8]
        /// PK_PICC as OpenPACE found it in EF.CardSecurity.
        public let chipKey: [UInt8]
    }

    /// The chip's static key from EF.CardSecurity (read under secure messaging), found by
    /// OpenPACE's own parser. Passive authentication is not OpenPACE's here: the test CSCA is not
    /// in its store.
    public func readChipAuthenticationKey() throws -> (cardSecurity: [UInt8], chipKey: [UInt8]) {
        defer { ERR_clear_error() }
        let read = try transmitProtected(CommandAPDU(ins: 0xB0, p1: 0x9D, p2: 0, ne: 65536))
        guard read.statusWord.isSuccess else { throw EACRefusal(step: .readCardSecurity, statusWord: read.statusWord) }
        CA_disable_passive_authentication(ctx)
        let key = read.data.withUnsafeBufferPointer { CA_get_pubkey(ctx, $0.baseAddress, $0.count) }
        guard let chipKey = OpenPACE.take(key) else { throw Failure.openPACE("CA_get_pubkey") }
        return (read.data, chipKey)
    }

    /// TA then CA (ECDH, AES-128, brainpoolP256r1), as a stand-alone terminal runs them after PACE
    /// with a CHAT: MSE:Set DST + PSO:Verify Certificate for each of `chain` (DER, 7F21; the
    /// certificates after the card's CVCA `cvca`), GET CHALLENGE, MSE:Set AT, EXTERNAL
    /// AUTHENTICATE signed by OpenPACE with `terminalKey` (RFC 5915 DER), EF.CardSecurity,
    /// MSE:Set AT for CA, GENERAL AUTHENTICATE; OpenPACE checks the card's token, and secure
    /// messaging goes on under the CA keys from SSC 0. Throws `EACRefusal` at the first status
    /// word other than 9000.
    @discardableResult
    public func runTerminalAndChipAuthentication(cvca: [UInt8], chain: [[UInt8]], terminalKey: [UInt8]) throws
        -> EACResult
    {
        defer { ERR_clear_error() }
        let (cardSecurity, chipKey) = try readChipAuthenticationKey()
        guard EAC_CTX_init_ca(ctx, eid_nid_ca_ecdh_aes128(), 13) == 1 else {
            throw Failure.openPACE("EAC_CTX_init_ca")
        }
        // TA: OpenPACE holds the terminal key; the CVCA sets its signature algorithm.
        let initialized = terminalKey.withUnsafeBufferPointer { k in
            cvca.withUnsafeBufferPointer { c in EAC_CTX_init_ta(ctx, k.baseAddress, k.count, c.baseAddress, c.count) }
        }
        guard initialized == 1 else { throw Failure.openPACE("EAC_CTX_init_ta") }
        TA_disable_checks(ctx)
        var holderReference: [UInt8] = []
        for der in chain {
            let certificate = try PeerTLV.parseAll(der)
            guard certificate.count == 1, certificate[0].tag == 0x7F21,
                let body = try PeerTLV.parseAll(certificate[0].value).first(where: { $0.tag == 0x7F4E }),
                let fields = try? PeerTLV.parseAll(body.value),
                let car = fields.first(where: { $0.tag == 0x42 })?.value,
                let chr = fields.first(where: { $0.tag == 0x5F20 })?.value
            else { throw Failure.openPACE("not a CV certificate") }
            try send(CommandAPDU(ins: 0x22, p1: 0x81, p2: 0xB6, data: PeerTLV(tag: 0x83, value: car).encoded), .setDST)
            try send(CommandAPDU(ins: 0x2A, p1: 0x00, p2: 0xBE, data: certificate[0].value), .verifyCertificate)
            holderReference = chr
        }
        guard OpenPACE.take(TA_STEP3_generate_ephemeral_key(ctx)) != nil else {
            throw Failure.openPACE("TA_STEP3_generate_ephemeral_key")
        }
        guard let ephemeral = OpenPACE.take(CA_STEP2_get_eph_pubkey(ctx)), ephemeral.count == 65 else {
            throw Failure.openPACE("CA_STEP2_get_eph_pubkey")
        }
        // The announced key at field length (OpenPACE's own Comp drops leading zero bytes).
        let compressed = Array(ephemeral[1...32])
        let challenge = try send(CommandAPDU(ins: 0x84, p1: 0, p2: 0, ne: 8), .getChallenge).data
        guard try OpenPACE.withBuffer(challenge, { TA_STEP4_set_nonce(ctx, $0) }) == 1 else {
            throw Failure.openPACE("TA_STEP4_set_nonce")
        }
        guard let taOID = OpenPACE.objectIdentifierContent(nid: eid_nid_ta_ecdsa_sha256()) else {
            throw Failure.openPACE("EAC_OBJ_nid2obj")
        }
        let setAT =
            PeerTLV(tag: 0x80, value: taOID).encoded + PeerTLV(tag: 0x83, value: holderReference).encoded
            + PeerTLV(tag: 0x91, value: compressed).encoded
        try send(CommandAPDU(ins: 0x22, p1: 0x81, p2: 0xA4, data: setAT), .setAT)
        let idPICC = Array(piccEphemeralKey.dropFirst().prefix(32))
        let signature = try OpenPACE.withBuffer(compressed) { c in
            try OpenPACE.withBuffer(idPICC) { i in OpenPACE.take(TA_STEP5_sign(ctx, c, i, nil)) }
        }
        guard let signature else { throw Failure.openPACE("TA_STEP5_sign") }
        try send(CommandAPDU(ins: 0x82, p1: 0, p2: 0, data: signature), .externalAuthenticate)

        // CA: OpenPACE checks the card's token and derives the keys.
        guard let caOID = OpenPACE.objectIdentifierContent(nid: eid_nid_ca_ecdh_aes128()) else {
            throw Failure.openPACE("EAC_OBJ_nid2obj")
        }
        let caSetAT = PeerTLV(tag: 0x80, value: caOID).encoded + PeerTLV(tag: 0x84, value: [0x41]).encoded
        try send(CommandAPDU(ins: 0x22, p1: 0x41, p2: 0xA4, data: caSetAT), .chipAuthenticationSetAT)
        let ga = try send(
            CommandAPDU(
                ins: 0x86, p1: 0, p2: 0,
                data: PeerTLV(tag: 0x7C, value: PeerTLV(tag: 0x80, value: ephemeral).encoded).encoded, ne: 256),
            .generalAuthenticate)
        guard let outer = try? PeerTLV.parseAll(ga.data), outer.count == 1, outer[0].tag == 0x7C,
            let inner = try? PeerTLV.parseAll(outer[0].value),
            let nonce = inner.first(where: { $0.tag == 0x81 })?.value,
            let token = inner.first(where: { $0.tag == 0x82 })?.value
        else { throw Failure.malformed(step: 0x86) }
        guard try OpenPACE.withBuffer(chipKey, { CA_STEP4_compute_shared_secret(ctx, $0) }) == 1 else {
            throw Failure.openPACE("CA_STEP4_compute_shared_secret")
        }
        let derived = try OpenPACE.withBuffer(nonce) { n in
            try OpenPACE.withBuffer(token) { t in CA_STEP6_derive_keys(ctx, n, t) }
        }
        guard derived == 1 else { throw Failure.chipTokenRejected }
        try switchToChipAuthenticationKeys()
        return EACResult(cardSecurity: cardSecurity, chipKey: chipKey)
    }

    @discardableResult
    private func send(_ command: CommandAPDU, _ step: EACStep) throws -> ResponseAPDU {
        let response = try transmitProtected(command)
        guard response.statusWord.isSuccess else { throw EACRefusal(step: step, statusWord: response.statusWord) }
        return response
    }
}

extension OpenPACE {
    /// A brainpoolP256r1 private key scalar as an RFC 5915 ECPrivateKey, for OpenPACE's
    /// d2i_AutoPrivateKey (EAC_CTX_init_ta).
    public static func brainpoolP256r1PrivateKeyDER(scalar: [UInt8]) -> [UInt8] {
        let curve: [UInt8] = [0xA0, 0x0B, 0x06, 0x09, 0x2B, 0x24, 0x03, 0x03, 0x02, 0x08, 0x01, 0x01, 0x07]
        let body: [UInt8] = [0x02, 0x01, 0x01, 0x04, UInt8(scalar.count)] + scalar + curve
        return [0x30, UInt8(body.count)] + body
    }
}
