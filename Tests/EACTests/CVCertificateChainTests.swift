import EAC
import EIDCrypto
import SmartCard
import TestVectors
import Testing

@Suite("CV certificates: issuing, strict parsing and chain checks")
struct CVCertificateChainTests {
    @Test func issuedChainVerifiesAndRoundTrips() throws {
        let pki = try TestPKI()
        for certificate in [pki.cvca, pki.dv, pki.terminal] {
            #expect(try CVCertificate(encoded: try certificate.encoded) == certificate)
        }
        let chain = try CVCertificateChain(
            target: pki.terminal, pool: [pki.dv], trustAnchors: [pki.cvca], date: TestPKI.today)
        #expect(chain.certificates == [pki.cvca, pki.dv, pki.terminal])
        #expect(try chain.targetKey() == pki.terminalKey.publicKey)
        #expect(chain.effectiveCHAT.accessRights == [.readDG4, .readDG5, .readDG8])
        // The DV's key carries no domain parameters; it inherits them from the CVCA.
        #expect(pki.dv.body.publicKey.domainParameters == nil)
        #expect(throws: CVCertificateError.missingDomainParameters) {
            try pki.dv.body.publicKey.point(inheriting: nil)
        }
    }

    @Test(arguments: [ECCurve.secp256r1, .brainpoolP384r1, .brainpoolP512r1])
    func issuesOnOtherCurves(curve: ECCurve) throws {
        let pki = try TestPKI(curve: curve)
        let chain = try CVCertificateChain(verifying: [pki.cvca, pki.dv, pki.terminal], date: TestPKI.today)
        #expect(try chain.targetKey().group.curve == curve)
    }

    // MARK: strict parsing

    @Test func refusesTruncatedCertificates() throws {
        let bytes = try TestPKI().dv.encoded
        #expect(throws: CVCertificateError.truncated(inside: 0x7F21)) {
            try CVCertificate(encoded: Array(bytes.dropLast()))
        }
        #expect(throws: CVCertificateError.truncated(inside: 0x7F21)) {
            try CVCertificate(encoded: Array(bytes.prefix(40)))
        }
        #expect(throws: CVCertificateError.truncated(inside: 0)) { try CVCertificate(encoded: []) }
        // The body's length claims one byte more than its content: the signature object is cut.
        let body = try TestPKI().dv.body.encoded
        var longBody = body
        longBody[3] += 1  // 7F4E 81 xx: body length + 1
        #expect(throws: CVCertificateError.truncated(inside: 0x7F4E)) { try CVCertificateBody(encoded: longBody) }
    }

    @Test func refusesTrailingBytes() throws {
        let bytes = try TestPKI().dv.encoded
        #expect(throws: CVCertificateError.trailingBytes(after: 0x7F21, count: 1)) {
            try CVCertificate(encoded: bytes + [0x00])
        }
        #expect(throws: CVCertificateError.trailingBytes(after: 0x7F21, count: bytes.count)) {
            try CVCertificate(encoded: bytes + bytes)
        }
    }

    @Test func refusesOverLongEncodings() throws {
        let pki = try TestPKI()
        var children = try pki.dv.body.tlv.children()
        // CHR with a long-form length (81 0D instead of 0D): not DER.
        let chrIndex = children.firstIndex { $0.tag == 0x5F20 }!
        let chr = children[chrIndex].value
        var raw = children.flatMap(\.bytes)
        let chrBytes = children[chrIndex].bytes
        let at = raw.indices.first { Array(raw[$0...].prefix(chrBytes.count)) == chrBytes }!
        raw.replaceSubrange(at..<(at + chrBytes.count), with: [0x5F, 0x20, 0x81, UInt8(chr.count)] + chr)
        let nonMinimal = TLV(
            tag: 0x7F21, value: TLV(tag: 0x7F4E, value: raw).bytes + TLV(tag: 0x5F37, value: pki.dv.signature).bytes
        ).bytes
        #expect(throws: CVCertificateError.nonMinimalLength(tag: 0x5F20)) { try CVCertificate(encoded: nonMinimal) }
        // A CHR of 17 characters is longer than the format allows.
        children[chrIndex] = TLV(tag: 0x5F20, value: Array("DEATTEST000010000".utf8))
        let longCHR = TLV(
            tag: 0x7F21, children: [TLV(tag: 0x7F4E, children: children), TLV(tag: 0x5F37, value: pki.dv.signature)])
        #expect(throws: CVCertificateError.invalidReference(tag: 0x5F20)) { try CVCertificate(encoded: longCHR.bytes) }
    }

    @Test func refusesUnknownAndMissingFields() throws {
        let pki = try TestPKI()
        let children = try pki.dv.body.tlv.children()
        func certificate(_ body: [TLV]) -> [UInt8] {
            TLV(tag: 0x7F21, children: [TLV(tag: 0x7F4E, children: body), TLV(tag: 0x5F37, value: pki.dv.signature)])
                .bytes
        }
        #expect(throws: CVCertificateError.unknownField(0x5F30, inside: 0x7F4E)) {
            try CVCertificate(encoded: certificate(children + [TLV(tag: 0x5F30, value: [1])]))
        }
        #expect(throws: CVCertificateError.unexpectedTag(expected: 0x5F20, found: 0x7F4C)) {
            try CVCertificate(encoded: certificate(children.filter { $0.tag != 0x5F20 }))
        }
        #expect(throws: CVCertificateError.missingField(0x5F24)) {
            try CVCertificate(encoded: certificate(children.filter { $0.tag != 0x5F24 }))
        }
        #expect(throws: CVCertificateError.unsupportedProfile(1)) {
            try CVCertificate(encoded: certificate([TLV(tag: 0x5F29, value: [1])] + children.dropFirst()))
        }
        // An unknown object inside the public key, and a partial set of domain parameters.
        let key = try pki.cvca.body.publicKey.tlv.children()
        let withKey = { (k: [TLV]) in
            certificate(children.map { $0.tag == 0x7F49 ? TLV(tag: 0x7F49, children: k) : $0 })
        }
        #expect(throws: CVCertificateError.unknownField(0x88, inside: 0x7F49)) {
            try CVCertificate(encoded: withKey(key + [TLV(tag: 0x88, value: [0])]))
        }
        #expect(throws: CVCertificateError.incompleteDomainParameters) {
            try CVCertificate(encoded: withKey(key.filter { $0.tag != 0x83 }))
        }
        // A second signature object after 5F37.
        let twoSignatures = TLV(
            tag: 0x7F21,
            children: [
                try pki.dv.body.tlv, TLV(tag: 0x5F37, value: pki.dv.signature),
                TLV(tag: 0x5F37, value: pki.dv.signature),
            ])
        #expect(throws: CVCertificateError.unknownField(0x5F37, inside: 0x7F21)) {
            try CVCertificate(encoded: twoSignatures.bytes)
        }
    }

    @Test func refusesBadDates() throws {
        let pki = try TestPKI()
        let children = try pki.dv.body.tlv.children()
        func with(_ tag: UInt32, _ value: [UInt8]) -> [UInt8] {
            let body = children.map { $0.tag == tag ? TLV(tag: tag, value: value) : $0 }
            return TLV(
                tag: 0x7F21, children: [TLV(tag: 0x7F4E, children: body), TLV(tag: 0x5F37, value: pki.dv.signature)]
            ).bytes
        }
        for bad: [UInt8] in [
            [2, 6, 0, 2, 3, 0], [2, 6, 1, 3, 0, 1], [2, 6, 0, 1, 0, 0x0A], [2, 6, 0, 1, 0],
            [0x32, 0x36, 0x30, 0x31, 0x30, 0x31],
        ] {
            #expect(throws: CVCertificateError.invalidDate(tag: 0x5F25)) {
                try CVCertificate(encoded: with(0x5F25, bad))
            }
            #expect(throws: CVCertificateError.invalidDate(tag: 0x5F24)) {
                try CVCertificate(encoded: with(0x5F24, bad))
            }
        }
        // 29 February exists in 2028 but not in 2027.
        #expect(throws: Never.self) { try CVCertificate(encoded: with(0x5F24, [2, 8, 0, 2, 2, 9])) }
        #expect(throws: CVCertificateError.invalidDate(tag: 0x5F24)) {
            try CVCertificate(encoded: with(0x5F24, [2, 7, 0, 2, 2, 9]))
        }
        #expect(throws: CVCertificateError.expirationBeforeEffectiveDate) {
            try CVCertificate(encoded: with(0x5F24, [2, 6, 1, 0, 3, 1]))
        }
    }

    // MARK: chain checks

    @Test func refusesAFlippedSignatureBit() throws {
        let pki = try TestPKI()
        for index in [0, 31, 32, 63] {
            var signature = pki.dv.signature
            signature[index] ^= 0x01
            let forged = CVCertificate(body: pki.dv.body, signature: signature)
            #expect(throws: CVCertificateChainError.invalidSignature(chr: "DEDVTEST00001")) {
                try CVCertificateChain(verifying: [pki.cvca, forged, pki.terminal], date: TestPKI.today)
            }
        }
        // One bit of the signed body changed (a right added to the terminal's CHAT).
        var body = pki.terminal.body
        body.chat = CHAT(role: .terminal, rights: [.readDG4, .readDG5, .readDG8, .readDG1])
        let tampered = CVCertificate(body: body, signature: pki.terminal.signature)
        #expect(throws: CVCertificateChainError.invalidSignature(chr: "DEATTEST00001")) {
            try CVCertificateChain(verifying: [pki.cvca, pki.dv, tampered], date: TestPKI.today)
        }
    }

    @Test func refusesExpiredAndNotYetValidCertificates() throws {
        let pki = try TestPKI()
        let chain = [pki.cvca, pki.dv, pki.terminal]
        #expect(
            throws: CVCertificateChainError.expired(
                chr: "DEATTEST00001", on: CalendarDate(year: 2026, month: 12, day: 20)!)
        ) {
            try CVCertificateChain(verifying: chain, date: CalendarDate(year: 2026, month: 12, day: 21)!)
        }
        // The expiration date itself is still valid.
        _ = try CVCertificateChain(verifying: chain, date: CalendarDate(year: 2026, month: 12, day: 20)!)
        #expect(
            throws: CVCertificateChainError.notYetValid(
                chr: "DEDVTEST00001", from: CalendarDate(year: 2026, month: 11, day: 1)!)
        ) {
            try CVCertificateChain(verifying: chain, date: CalendarDate(year: 2026, month: 10, day: 31)!)
        }
        // The vector's chain is long expired, from its last CVCA on.
        let vector = try CVCVector("detesteid_eac1")
        #expect(
            throws: CVCertificateChainError.expired(
                chr: "DETESTeID00006", on: CalendarDate(year: 2021, month: 2, day: 5)!)
        ) {
            try CVCertificateChain(verifying: try vector.parsed(), date: TestPKI.today)
        }
    }

    @Test func refusesADVNotSignedByTheCVCA() throws {
        let pki = try TestPKI()
        let other = try TestPKI()
        // Same CAR, signed by another CVCA's key.
        let foreign = try pki.dv.body.signed(by: other.cvcaKey.privateKey, algorithm: .ecdsaSHA256)
        #expect(throws: CVCertificateChainError.invalidSignature(chr: "DEDVTEST00001")) {
            try CVCertificateChain(target: pki.terminal, pool: [foreign], trustAnchors: [pki.cvca], date: TestPKI.today)
        }
        // A CAR that names no trusted CVCA.
        var body = pki.dv.body
        body.authorityReference = "DEOTHERCVCA0001"
        let stray = try body.signed(by: pki.cvcaKey.privateKey, algorithm: .ecdsaSHA256)
        #expect(throws: CVCertificateChainError.unknownAuthority(car: "DEOTHERCVCA0001", of: "DEDVTEST00001")) {
            try CVCertificateChain(target: pki.terminal, pool: [stray], trustAnchors: [pki.cvca], date: TestPKI.today)
        }
        // A terminal whose DV is missing.
        #expect(throws: CVCertificateChainError.unknownAuthority(car: "DEDVTEST00001", of: "DEATTEST00001")) {
            try CVCertificateChain(target: pki.terminal, pool: [], trustAnchors: [pki.cvca], date: TestPKI.today)
        }
    }

    /// The card does not refuse a terminal CHAT beyond its DV's (TR-03110-3; OpenPACE, AusweisApp):
    /// the chain verifies and grants only the AND of its CHATs.
    @Test func aTerminalCHATBeyondItsDVVerifiesAndGrantsOnlyTheAND() throws {
        let pki = try TestPKI(terminalRights: [.readDG4, .readDG5, .readDG8, .readDG9])
        #expect(!pki.terminal.body.chat.isWithin(pki.dv.body.chat))
        let chain = try CVCertificateChain(verifying: [pki.cvca, pki.dv, pki.terminal], date: TestPKI.today)
        #expect(chain.effectiveCHAT.accessRights == [.readDG4, .readDG5, .readDG8])
        #expect(chain.effectiveCHAT.role == .terminal)
        let built = try CVCertificateChain(
            target: pki.terminal, pool: [pki.dv], trustAnchors: [pki.cvca], date: TestPKI.today)
        #expect(built.effectiveCHAT == chain.effectiveCHAT)
    }

    @Test func refusesWrongRoles() throws {
        let pki = try TestPKI()
        // A terminal issued directly by the CVCA.
        var body = pki.terminal.body
        body.authorityReference = "DETESTCVCA00001"
        let direct = try body.signed(by: pki.cvcaKey.privateKey, algorithm: .ecdsaSHA256)
        #expect(throws: CVCertificateChainError.wrongRole(chr: "DEATTEST00001", role: .terminal, issuerRole: .cvca)) {
            try CVCertificateChain(verifying: [pki.cvca, direct], date: TestPKI.today)
        }
        // A DV issued by a DV.
        var dv2 = pki.dv.body
        dv2.authorityReference = "DEDVTEST00001"
        dv2.holderReference = "DEDVTEST00002"
        let nested = try dv2.signed(by: pki.dvKey.privateKey, algorithm: .ecdsaSHA256)
        #expect(
            throws: CVCertificateChainError.wrongRole(
                chr: "DEDVTEST00002", role: .dvOfficialDomestic, issuerRole: .dvOfficialDomestic)
        ) {
            try CVCertificateChain(verifying: [pki.cvca, pki.dv, nested], date: TestPKI.today)
        }
    }

    @Test func followsCVCALinkCertificates() throws {
        let pki = try TestPKI()
        // A new CVCA key, linked from the old one; the DV is issued under the new key.
        let newKey = try ECKeyPair.generate(group: pki.cvcaKey.privateKey.group)
        var linkBody = pki.cvca.body
        linkBody.holderReference = "DETESTCVCA00002"
        linkBody.publicKey = try CVPublicKey(
            algorithm: .ecdsaSHA256, point: newKey.publicKey, includingDomainParameters: true)
        let link = try linkBody.signed(by: pki.cvcaKey.privateKey, algorithm: .ecdsaSHA256)
        var dvBody = pki.dv.body
        dvBody.authorityReference = "DETESTCVCA00002"
        let dv = try dvBody.signed(by: newKey.privateKey, algorithm: .ecdsaSHA256)
        let chain = try CVCertificateChain(
            target: pki.terminal, pool: [dv, link], trustAnchors: [pki.cvca], date: TestPKI.today)
        #expect(
            chain.certificates.map(\.body.holderReference) == [
                "DETESTCVCA00001", "DETESTCVCA00002", "DEDVTEST00001", "DEATTEST00001",
            ])
        // A link certificate without domain parameters is refused.
        linkBody.publicKey = try CVPublicKey(
            algorithm: .ecdsaSHA256, point: newKey.publicKey, includingDomainParameters: false)
        let bareLink = try linkBody.signed(by: pki.cvcaKey.privateKey, algorithm: .ecdsaSHA256)
        #expect(throws: CVCertificateChainError.missingDomainParameters(chr: "DETESTCVCA00002")) {
            try CVCertificateChain(verifying: [pki.cvca, bareLink, dv, pki.terminal], date: TestPKI.today)
        }
    }
}

@Suite("CV certificates: the card's current date")
struct CardCurrentDateTests {
    @Test func raisesTheDateOnlyForTrustedIssuers() throws {
        let pki = try TestPKI()
        let early = CalendarDate(year: 2026, month: 1, day: 1)!
        let dvDate = pki.dv.body.effectiveDate
        #expect(pki.dv.cardCurrentDate(after: early, issuerRole: .cvca) == dvDate)
        #expect(pki.cvca.cardCurrentDate(after: early, issuerRole: .cvca) == early, "same day, nothing to raise")
        // A terminal certificate under an official domestic DV counts, under a foreign DV it does not.
        let terminalDate = pki.terminal.body.effectiveDate
        #expect(pki.terminal.cardCurrentDate(after: dvDate, issuerRole: .dvOfficialDomestic) == terminalDate)
        #expect(pki.terminal.cardCurrentDate(after: dvDate, issuerRole: .dvNonOfficialForeign) == dvDate)
        // Never lowered.
        let late = CalendarDate(year: 2028, month: 1, day: 1)!
        #expect(pki.dv.cardCurrentDate(after: late, issuerRole: .cvca) == late)
        #expect(pki.terminal.isValid(on: terminalDate) && pki.terminal.isValid(on: pki.terminal.body.expirationDate))
        #expect(!pki.terminal.isValid(on: late))
    }
}
