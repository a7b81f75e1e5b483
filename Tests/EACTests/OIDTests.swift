import EAC
import SmartCard
import Testing

@Suite("OID (X.690 8.19, TR-03110-3 A.1)")
struct OIDTests {
    @Test func paceIdentifierEncodesAsInMSESetAT() throws {
        let oid = try #require(OID(dotted: "0.4.0.127.0.7.2.2.4.2.2"))
        #expect(oid.derValue.hexString == "04007f00070202040202")
        #expect(oid.der.hexString == "060a04007f00070202040202")
        #expect(oid.name == "id-PACE-ECDH-GM-AES-CBC-CMAC-128")
        #expect(OID(name: "id-PACE-ECDH-GM-AES-CBC-CMAC-128") == oid)
        #expect(try OID(derValue: oid.derValue) == oid)
        #expect(try OID(der: oid.der) == oid)
        #expect(oid.hasPrefix(.idPACE))
        #expect(!oid.hasPrefix(.idCA))
        #expect(PACEProtocol(oid: oid) == .ecdhGenericMappingAES128)
        #expect(PACEProtocol.ecdhGenericMappingAES256.oid.dotted == "0.4.0.127.0.7.2.2.4.2.4")
    }

    @Test func namesOfTheSpecifications() {
        let expected: [String: String] = [
            "0.4.0.127.0.7.2.2.2": "id-TA",
            "0.4.0.127.0.7.2.2.2.2.5": "id-TA-ECDSA-SHA-512",
            "0.4.0.127.0.7.2.2.3.2.2": "id-CA-ECDH-AES-CBC-CMAC-128",
            "0.4.0.127.0.7.2.2.3.2": "id-CA-ECDH",
            "0.4.0.127.0.7.2.2.1.2": "id-PK-ECDH",
            "0.4.0.127.0.7.2.2.4.6.2": "id-PACE-ECDH-CAM-AES-CBC-CMAC-128",
            "0.4.0.127.0.7.2.2.4.1.2": "id-PACE-DH-GM-AES-CBC-CMAC-128",
            "0.4.0.127.0.7.2.2.4.4.4": "id-PACE-ECDH-IM-AES-CBC-CMAC-256",
            "0.4.0.127.0.7.1.2": "standardizedDomainParameters",
            "0.4.0.127.0.7.2.2.6": "id-CI",
            "0.4.0.127.0.7.2.2.8": "id-PT",
            "0.4.0.127.0.7.3.2.1": "id-SecurityObject",
            "0.4.0.127.0.7.3.1.2.2": "id-AT",
            "1.2.840.113549.1.7.2": "signedData",
        ]
        for (dotted, name) in expected {
            #expect(OID(dotted: dotted)?.name == name, "\(dotted)")
        }
        #expect(OID(dotted: "1.2.3.4")?.name == nil)
    }

    @Test func largeArcsAndFirstArcTwo() throws {
        let oid = try #require(OID(dotted: "2.999.16384"))
        #expect(oid.derValue.hexString == "8837818000")
        #expect(try OID(derValue: oid.derValue).dotted == "2.999.16384")
        let sha256 = try #require(OID(dotted: "2.16.840.1.101.3.4.2.1"))
        #expect(sha256.derValue.hexString == "608648016503040201")
    }

    @Test func rejectsMalformedEncodings() {
        let bad: [[UInt8]] = [
            [], [0x2B, 0x86], [0x2B, 0x80, 0x01], [0x80, 0x01], [0x2B] + [UInt8](repeating: 0xFF, count: 10) + [0x7F],
        ]
        for b in bad {
            #expect(throws: ASN1Error.invalidObjectIdentifier, "\(b.hexString)") { try OID(derValue: b) }
        }
        #expect(throws: ASN1Error.unexpectedTag(expected: 0x06, found: 0x04)) {
            try OID(der: [0x04, 0x01, 0x2B])
        }
        #expect(throws: ASN1Error.self) { try OID(der: [0x06, 0x05, 0x2B]) }
        for text in ["", "1", "1.", ".1.2", "3.1", "0.40", "1.2.x", "1..2", "1.-2"] {
            #expect(OID(dotted: text) == nil, "\(text)")
        }
    }
}
