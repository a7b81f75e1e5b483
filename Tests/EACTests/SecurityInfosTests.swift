import EAC
import EIDCrypto
import SmartCard
import TestVectors
import Testing

@Suite("SecurityInfos: EF.CardAccess and EF.CardSecurity (TR-03110-3 A.1)")
struct SecurityInfosTests {
    static func files() throws -> [[String: Any]] {
        try #require(Fixture.values("ef_cardaccess")["files"] as? [[String: Any]])
    }

    /// Compares one parsed info with its decoded description in ef_cardaccess.json.
    func check(_ info: SecurityInfo, _ expected: [String: Any], _ label: String) throws {
        let oid = try #require(OID(dotted: expected["oid"] as! String))
        #expect(info.protocol == oid, "\(label)")
        let standardizedID = (expected["domainParameter"] as? [String: Any])?["standardizedId"] as? Int
        switch (expected["type"] as! String, info) {
        case ("PACEInfo", .pace(let i)):
            #expect(i.version == expected["version"] as? Int, "\(label)")
            #expect(i.parameterID == expected["parameterId"] as? Int, "\(label)")
            #expect(i.paceProtocol != nil, "\(label)")
        case ("ChipAuthenticationInfo", .chipAuthentication(let i)):
            #expect(i.version == expected["version"] as? Int, "\(label)")
            #expect(i.keyID == expected["keyId"] as? Int, "\(label)")
        case ("ChipAuthenticationDomainParameterInfo", .chipAuthenticationDomainParameter(let i)):
            #expect(i.domainParameter.algorithm == .standardizedDomainParameters, "\(label)")
            #expect(i.domainParameter.standardizedDomainParameterID == standardizedID, "\(label)")
            #expect(i.keyID == expected["keyId"] as? Int, "\(label)")
        case ("TerminalAuthenticationInfo", .terminalAuthentication(let i)):
            #expect(i.version == expected["version"] as? Int, "\(label)")
            #expect(i.efCVCA == nil, "\(label)")
        case ("CardInfoLocator", .cardInfoLocator(let i)):
            #expect(i.url == expected["url"] as? String, "\(label)")
        case ("PrivilegedTerminalInfo", .privilegedTerminal(let inner)):
            let subs = try #require(expected["privilegedTerminalInfos"] as? [[String: Any]])
            #expect(inner.infos.count == subs.count, "\(label)")
            for (i, sub) in zip(inner.infos, subs) {
                try check(i, sub, label + " PT")
                #expect(i.der.hexString == sub["der"] as? String, "\(label) PT der")
            }
        case ("other", .unknown(let u)):
            #expect(u.der.hexString.contains((expected["rest"] as! [String]).joined()), "\(label)")
        default:
            Issue.record("\(label): expected \(expected["type"]!), parsed \(info)")
        }
    }

    @Test func allSixCardAccessFiles() throws {
        let files = try Self.files()
        #expect(files.count == 6)
        for file in files {
            let name = file["name"] as! String
            let bytes = try hex(file["hex"] as! String)
            let infos = try SecurityInfos(efCardAccess: bytes)
            let decoded = file["decoded"] as! [[String: Any]]
            #expect(infos.infos.count == decoded.count, "\(name)")
            for (info, expected) in zip(infos.infos, decoded) { try check(info, expected, name) }
            // Re-encoding reproduces the file's DER (without the padding some cards leave).
            let der = try hex((file["hex_der_only"] ?? file["hex"]) as! String)
            #expect(infos.der == der, "\(name): encoder")
            #expect(try SecurityInfos(der: der) == infos, "\(name)")
            // The strict reader refuses the padded files.
            if file["trailing_bytes"] != nil {
                #expect(throws: ASN1Error.self, "\(name)") { try SecurityInfos(der: bytes) }
            }
        }
    }

    @Test func convenienceAccessorsOnTheRealCard() throws {
        let file = try #require(try Self.files().first { $0["name"] as? String == "npa_real_card_openpace_dan" })
        let infos = try SecurityInfos(efCardAccess: hex(file["hex"] as! String))
        #expect(infos.paceInfos.map(\.paceProtocol) == [.ecdhGenericMappingAES128])
        #expect(infos.paceInfos.first?.parameterID == 13)
        #expect(infos.chipAuthenticationInfos.map(\.keyID) == [65, 69])
        #expect(infos.chipAuthenticationDomainParameterInfos.map(\.keyID) == [65, 69])
        #expect(infos.terminalAuthenticationInfo?.version == 2)
        #expect(infos.cardInfoLocator?.url == "http://bsi.bund.de/cif/npa.xml")
        #expect(infos.privilegedTerminalInfos == nil)
    }

    @Test func cardSecurityOfTheBSIWorkedExample() throws {
        let v = try Fixture.values("eac_worked_example_bsi_ecdh")
        let infos = try SecurityInfos(efCardSecurity: hex(v["ef_cardsecurity"] as! String))
        let keys = infos.chipAuthenticationPublicKeyInfos
        #expect(keys.count == 1)
        let key = try #require(keys.first)
        #expect(key.protocol == .idPKECDH)
        #expect(key.keyID == 1)
        #expect(key.chipAuthenticationPublicKey.algorithm.standardizedDomainParameterID == 13)
        #expect(key.chipAuthenticationPublicKey.publicKey.hexString == v["ca_chip_static_public_key"] as? String)
        // The key is a valid point of the announced curve.
        let group = try ECGroup(standardizedDomainParameterID: 13)
        _ = try ECPoint(group: group, encoded: key.chipAuthenticationPublicKey.publicKey)
        #expect(infos.paceInfos.first?.parameterID == 13)
        #expect(infos.chipAuthenticationInfos.first?.keyID == 1)
        // Restricted Identification infos are kept, not rejected.
        #expect(infos.unknownInfos.map(\.protocol.name) == ["id-RI-ECDH-SHA-256", "id-RI-ECDH-SHA-256", "id-RI-ECDH"])
        #expect(infos.infos.count == 9)
    }

    @Test func cardSecurityOfTheAusweisAppFixture() throws {
        let blob = try #require(Fixture.values("ef_cardaccess")["ef_cardsecurity_ausweisapp_fixture"] as? String)
        let infos = try SecurityInfos(efCardSecurity: hex(blob))
        let key = try #require(infos.chipAuthenticationPublicKeyInfos.first)
        #expect(key.keyID == 0x41)
        #expect(key.chipAuthenticationPublicKey.publicKey.hexString.hasPrefix("0498730cc691dde0"))
        #expect(infos.chipAuthenticationInfos.map(\.keyID) == [0x41])
        #expect(infos.cardInfoLocator?.url == "http://bsi.bund.de/cif/npa.xml")
        #expect(infos.paceInfos.count == 1)
    }

    @Test func encoderBuildsTheICAOExampleCardAccess() throws {
        let infos = SecurityInfos([
            .pace(PACEInfo(protocol: PACEProtocol.ecdhGenericMappingAES128.oid, version: 2, parameterID: 13))
        ])
        let g1 = try Fixture.hexValues("pace_ecdh_gm_brainpoolp256r1")
        #expect(infos.der == (try g1.bytes("ef_cardaccess")))
        // A card with TA, CA (with domain parameters and public key) and a locator round-trips.
        let built = SecurityInfos([
            .terminalAuthentication(TerminalAuthenticationInfo(version: 2)),
            .chipAuthentication(
                ChipAuthenticationInfo(
                    protocol: OID(name: "id-CA-ECDH-AES-CBC-CMAC-128")!, version: 2, keyID: 1)),
            .chipAuthenticationDomainParameter(
                ChipAuthenticationDomainParameterInfo(
                    protocol: OID(name: "id-CA-ECDH")!, domainParameter: .standardized(13), keyID: 1)),
            .chipAuthenticationPublicKey(
                ChipAuthenticationPublicKeyInfo(
                    protocol: .idPKECDH,
                    chipAuthenticationPublicKey: SubjectPublicKeyInfo(
                        algorithm: .standardized(13), publicKey: [0x04, 1, 2]),
                    keyID: 1)),
            .cardInfoLocator(CardInfoLocator(url: "http://example.org/cif.xml")),
            .privilegedTerminal(
                SecurityInfos([
                    .chipAuthentication(
                        ChipAuthenticationInfo(
                            protocol: OID(name: "id-CA-ECDH-AES-CBC-CMAC-128")!, keyID: 2))
                ])),
        ])
        #expect(try SecurityInfos(der: built.der) == built)
        // The BSI worked example's EF.CardAccess is reproduced from its parsed form.
        let bsi = try Fixture.hexValues("eac_worked_example_bsi_ecdh").bytes("ef_cardaccess")
        #expect(try SecurityInfos(der: bsi).der == bsi)
    }

    @Test func malformedInputIsATypedErrorNeverACrash() throws {
        let files = try Self.files()
        for file in files {
            let der = try hex((file["hex_der_only"] ?? file["hex"]) as! String)
            let name = file["name"] as! String
            // Every proper prefix fails with an ASN1Error.
            for n in 0..<der.count {
                #expect(throws: ASN1Error.self) { try SecurityInfos(efCardAccess: Array(der.prefix(n))) }
            }
            // The first SecurityInfo's SEQUENCE tag flipped to 70 (after the SET's tag and length).
            let header = der[1] < 0x80 ? 2 : 2 + Int(der[1] & 0x7F)
            var retagged = der
            retagged[header] ^= 0x40
            #expect(throws: ASN1Error.unexpectedTag(expected: 0x30, found: 0x70), "\(name)") {
                try SecurityInfos(der: retagged)
            }
            // The SET's length one more than there is: the data ends early.
            var longer = der
            longer[header - 1] += 1
            do {
                _ = try SecurityInfos(der: longer)
                Issue.record("\(name): a SET longer than its data parsed")
            } catch ASN1Error.malformed(.truncated) {
            } catch {
                Issue.record("\(name): \(error), not truncated")
            }
        }
        #expect(throws: ASN1Error.unexpectedTag(expected: 0x31, found: 0x30)) { try SecurityInfos(der: [0x30, 0x00]) }
        // A PACEInfo without its version is malformed, not unknown.
        let pace = PACEProtocol.ecdhGenericMappingAES128.oid
        let noVersion = TLV(tag: 0x31, children: [TLV(tag: 0x30, children: [pace.tlv])]).bytes
        #expect(throws: ASN1Error.invalidSecurityInfo(pace)) { try SecurityInfos(der: noVersion) }
        let stringVersion = TLV(
            tag: 0x31, children: [TLV(tag: 0x30, children: [pace.tlv, TLV(tag: 0x04, value: [2])])]
        ).bytes
        #expect(throws: ASN1Error.invalidSecurityInfo(pace)) { try SecurityInfos(der: stringVersion) }
        let negative = TLV(tag: 0x31, children: [TLV(tag: 0x30, children: [pace.tlv, TLV(tag: 0x02, value: [0xFF])])])
            .bytes
        #expect(throws: ASN1Error.invalidSecurityInfo(pace)) { try SecurityInfos(der: negative) }
        // An unknown protocol with any content is kept.
        let vendor = TLV(
            tag: 0x30, children: [OID(dotted: "1.3.6.1.4.1.99.1")!.tlv, TLV(tag: 0x04, value: [1, 2])])
        let kept = try SecurityInfos(der: TLV(tag: 0x31, children: [vendor]).bytes)
        #expect(kept.unknownInfos.first?.der == vendor.bytes)
        // EF.CardSecurity that is not SignedData.
        #expect(throws: ASN1Error.self) { try SecurityInfos(efCardSecurity: [0x30, 0x03, 0x02, 0x01, 0x01]) }
        let v = try Fixture.values("eac_worked_example_bsi_ecdh")
        let cs = try hex(v["ef_cardsecurity"] as! String)
        for n in stride(from: 0, to: cs.count, by: 7) {
            #expect(throws: ASN1Error.self) { try SecurityInfos(efCardSecurity: Array(cs.prefix(n))) }
        }
    }
}

@Suite struct PrivilegedTerminalInfoTests {
    static let idPT = TLV(tag: 0x06, value: [0x04, 0x00, 0x7F, 0x00, 0x07, 0x02, 0x02, 0x08])
    static let pace = TLV(
        tag: 0x30,
        children: [
            TLV(tag: 0x06, value: [0x04, 0x00, 0x7F, 0x00, 0x07, 0x02, 0x02, 0x04, 0x02, 0x02]),
            TLV(tag: 0x02, value: [2]), TLV(tag: 0x02, value: [13]),
        ])

    @Test func oneLevelIsRead() throws {
        let outer = TLV(
            tag: 0x31, children: [TLV(tag: 0x30, children: [Self.idPT, TLV(tag: 0x31, children: [Self.pace])])])
        let infos = try SecurityInfos(der: outer.bytes)
        #expect(infos.privilegedTerminalInfos?.paceInfos.count == 1)
    }

    @Test func nestedPrivilegedTerminalInfosAreRefused() {
        var inner = TLV(tag: 0x31, children: [Self.pace])
        for _ in 0..<3 { inner = TLV(tag: 0x31, children: [TLV(tag: 0x30, children: [Self.idPT, inner])]) }
        #expect(throws: ASN1Error.self) { try SecurityInfos(der: inner.bytes) }
    }
}
