import EIDCrypto
import SmartCard
import TestVectors
import Testing

@Suite("ECDSA with plain r || s signatures (TR-03111)")
struct ECDSATests {
    static let curves: [ECCurve] = [.brainpoolP256r1, .secp256r1, .brainpoolP384r1, .secp384r1, .brainpoolP512r1]

    @Test(arguments: curves, Digest.allCases)
    func signsAndVerifies(curve: ECCurve, digest: Digest) throws {
        let group = try ECGroup(curve)
        let key = try ECKeyPair.generate(group: group)
        let message = Array("7F4E body to be signed".utf8)
        let signature = try ECDSA.sign(message, digest: digest, privateKey: key.privateKey)
        #expect(signature.count == 2 * group.orderSize)
        #expect(try ECDSA.verify(signature, of: message, digest: digest, publicKey: key.publicKey))
        // One flipped bit in the signature, in the message, another hash or another key: refused.
        var flipped = signature
        flipped[signature.count - 1] ^= 0x01
        #expect(try !ECDSA.verify(flipped, of: message, digest: digest, publicKey: key.publicKey))
        #expect(try !ECDSA.verify(signature, of: message + [0], digest: digest, publicKey: key.publicKey))
        let other: Digest = digest == .sha256 ? .sha512 : .sha256
        #expect(try !ECDSA.verify(signature, of: message, digest: other, publicKey: key.publicKey))
        let stranger = try ECKeyPair.generate(group: group)
        #expect(try !ECDSA.verify(signature, of: message, digest: digest, publicKey: stranger.publicKey))
    }

    @Test func refusesMalformedSignatures() throws {
        let group = try ECGroup(.brainpoolP256r1)
        let key = try ECKeyPair.generate(group: group)
        let message: [UInt8] = [1, 2, 3]
        let signature = try ECDSA.sign(message, digest: .sha256, privateKey: key.privateKey)
        #expect(throws: ECDSAError.invalidSignatureLength(expected: 64, found: 63)) {
            try ECDSA.verify(Array(signature.dropLast()), of: message, digest: .sha256, publicKey: key.publicKey)
        }
        #expect(throws: ECDSAError.invalidSignatureLength(expected: 64, found: 65)) {
            try ECDSA.verify(signature + [0], of: message, digest: .sha256, publicKey: key.publicKey)
        }
        // r = 0 or s = 0, and r = n (not below the order): well-formed length, never valid.
        let zero = [UInt8](repeating: 0, count: 32)
        #expect(
            try !ECDSA.verify(
                zero + Array(signature.suffix(32)), of: message, digest: .sha256, publicKey: key.publicKey))
        #expect(
            try !ECDSA.verify(
                Array(signature.prefix(32)) + zero, of: message, digest: .sha256, publicKey: key.publicKey))
        #expect(
            try !ECDSA.verify(
                group.order + Array(signature.suffix(32)), of: message, digest: .sha256, publicKey: key.publicKey))
    }

    @Test(arguments: ECCurve.allCases)
    func explicitDomainParametersNameTheirCurve(curve: ECCurve) throws {
        let parameters = try ECGroup(curve).domainParameters
        #expect(try parameters.curve() == curve)
        var changed = parameters
        changed.b[changed.b.count - 1] ^= 0x01
        #expect(throws: ECDSAError.unknownDomainParameters) { try changed.curve() }
        var otherGenerator = parameters
        otherGenerator.generator = try ECGroup(curve).generator().multiplied(by: [2]).encoded
        #expect(throws: ECDSAError.unknownDomainParameters) { try otherGenerator.curve() }
    }

    @Test func brainpoolP256r1DomainParametersAreThoseOfTheTestCVCA() throws {
        // AusweisApp's test CVCA DETESTeID00001 (cvc_chain.json) carries 81 p = a9fb57db...
        let values = try Fixture.values("cvc_chain")
        let chain = ((values["detesteid_eac1"] as? [String: Any])?["chain"] as? [[String: Any]]) ?? []
        let certificate = try hex(chain.first?["hex"] as? String ?? "")
        let p = try ECGroup(.brainpoolP256r1).domainParameters
        let expected =
            [0x81, 0x20] + p.prime + [0x82, 0x20] + p.a + [0x83, 0x20] + p.b + [0x84, 0x41] + p.generator
            + [0x85, 0x20] + p.order
        #expect(certificate.indices.contains { Array(certificate[$0...].prefix(expected.count)) == expected })
        #expect(p.cofactor == [0x01])
    }

    /// BSI Worked Example for EAC: the terminal's brainpoolP512r1 key (PKCS#8 in the vector) is
    /// the one of the terminal certificate, and its TA signature over ID_PICC || r_PICC ||
    /// Comp(PK_PCD) verifies with SHA-512.
    @Test func bsiWorkedExampleTerminalAuthenticationSignature() throws {
        let v = try Fixture.hexValues("eac_worked_example_bsi_ecdh")
        let group = try ECGroup(.brainpoolP512r1)
        let pkcs8 = try v.bytes("ta_pcd_private_key_pkcs8")
        // ECPrivateKey { version 1, privateKey OCTET STRING (64) } closes the PKCS#8 structure.
        #expect(Array(pkcs8.suffix(68).prefix(4)) == [0x01, 0x01, 0x04, 0x40])
        let key = try ECKeyPair(group: group, privateScalar: Array(pkcs8.suffix(64)))
        let terminal = try v.bytes("terminal_cert")
        #expect(
            terminal.indices.contains {
                Array(terminal[$0...].prefix(key.publicKey.encoded.count)) == key.publicKey.encoded
            })

        let pace = try ECGroup(.brainpoolP256r1)
        let idPICC = try ECPoint(group: pace, encoded: try v.bytes("eph_chip_public_key")).x
        let compPCD = try ECPoint(group: pace, encoded: try v.bytes("ca_terminal_eph_public_key")).x
        let message = idPICC + (try v.bytes("ta_nonce_r_picc")) + compPCD
        let signature = try v.bytes("ta_signature")
        #expect(try ECDSA.verify(signature, of: message, digest: .sha512, publicKey: key.publicKey))
        var flipped = signature
        flipped[0] ^= 0x80
        #expect(try !ECDSA.verify(flipped, of: message, digest: .sha512, publicKey: key.publicKey))
        // Our own signature with the same key verifies too.
        let ours = try ECDSA.sign(message, digest: .sha512, privateKey: key.privateKey)
        #expect(try ECDSA.verify(ours, of: message, digest: .sha512, publicKey: key.publicKey))
    }
}
