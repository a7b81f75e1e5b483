import EIDCrypto
import SmartCard
import TestVectors
import Testing

@Suite("Elliptic curves: groups, points, keys, ECDH")
struct ECTests {
    @Test func standardizedDomainParameterIDs() throws {
        // BSI TR-03110-3, A.2.1.1, table 4.
        let expected: [Int: ECCurve] = [
            8: .secp192r1, 9: .brainpoolP192r1, 10: .secp224r1, 11: .brainpoolP224r1, 12: .secp256r1,
            13: .brainpoolP256r1, 14: .brainpoolP320r1, 15: .secp384r1, 16: .brainpoolP384r1, 17: .brainpoolP512r1,
            18: .secp521r1,
        ]
        for (id, curve) in expected {
            let group = try ECGroup(standardizedDomainParameterID: id)
            #expect(group.curve == curve)
            #expect(curve.standardizedDomainParameterID == id)
        }
        for id in [0, 1, 2, 3, 7, 19, -1] {
            #expect(throws: CryptoError.unsupportedDomainParameter(id)) {
                try ECGroup(standardizedDomainParameterID: id)
            }
        }
    }

    @Test(arguments: ECCurve.allCases)
    func keyAgreementIsSymmetric(curve: ECCurve) throws {
        let group = try ECGroup(curve)
        let sizes: [ECCurve: Int] = [
            .secp192r1: 24, .brainpoolP192r1: 24, .secp224r1: 28, .brainpoolP224r1: 28, .secp256r1: 32,
            .brainpoolP256r1: 32, .brainpoolP320r1: 40, .secp384r1: 48, .brainpoolP384r1: 48, .brainpoolP512r1: 64,
            .secp521r1: 66,
        ]
        #expect(group.fieldSize == sizes[curve])
        let a = try ECKeyPair.generate(group: group)
        let b = try ECKeyPair.generate(group: group)
        #expect(a.publicKey.encoded.count == 1 + 2 * group.fieldSize)
        #expect(try a.sharedSecret(with: b.publicKey) == b.sharedSecret(with: a.publicKey))
        #expect(try a.sharedSecret(with: b.publicKey).count == group.fieldSize)
        // Decoding the encoding gives the same point; x and y are the halves.
        let decoded = try ECPoint(group: group, encoded: a.publicKey.encoded)
        #expect(decoded == a.publicKey)
        #expect([0x04] + decoded.x + decoded.y == a.publicKey.encoded)
        // A key pair from the raw scalar reproduces the public key.
        let again = try ECKeyPair(group: group, privateScalar: a.privateKey.rawScalar())
        #expect(again.publicKey == a.publicKey)
    }

    @Test func icaoG1GenericMappingStepByStep() throws {
        let v = try Fixture.hexValues("pace_ecdh_gm_brainpoolp256r1")
        let group = try ECGroup(.brainpoolP256r1)
        let mapT = try ECKeyPair(group: group, privateScalar: v.bytes("map_terminal_private_key"))
        let mapC = try ECKeyPair(group: group, privateScalar: v.bytes("map_chip_private_key"))
        #expect(mapT.publicKey.encoded.hexString == v["map_terminal_public_key"])
        #expect(mapC.publicKey.encoded.hexString == v["map_chip_public_key"])
        let h = try mapT.sharedPoint(with: mapC.publicKey)
        #expect(h.encoded.hexString == v["map_shared_secret_h"])
        #expect(try mapC.sharedPoint(with: mapT.publicKey) == h)
        // G~ = s * G + H
        let mapped = try group.generator().multiplied(by: v.bytes("nonce_s")).adding(h)
        #expect(mapped.encoded.hexString == v["mapped_generator"])
        let ephT = try ECKeyPair(group: group, privateScalar: v.bytes("eph_terminal_private_key"), base: mapped)
        let ephC = try ECKeyPair(group: group, privateScalar: v.bytes("eph_chip_private_key"), base: mapped)
        #expect(ephT.publicKey.encoded.hexString == v["eph_terminal_public_key"])
        #expect(ephC.publicKey.encoded.hexString == v["eph_chip_public_key"])
        #expect(try ephT.sharedSecret(with: ephC.publicKey).hexString == v["shared_secret_k"])
        #expect(try ephC.sharedSecret(with: ephT.publicKey).hexString == v["shared_secret_k"])
    }

    @Test func rejectsInvalidPoints() throws {
        let group = try ECGroup(.brainpoolP256r1)
        let good = try Fixture.hexValues("pace_ecdh_gm_brainpoolp256r1").bytes("map_chip_public_key")
        #expect(try ECPoint(group: group, encoded: good).encoded == good)
        var offCurve = good
        offCurve[64] ^= 0x01
        var compressed = Array(good.prefix(33))
        compressed[0] = 0x02
        var wrongPrefix = good
        wrongPrefix[0] = 0x06
        let zeros = [0x04] + [UInt8](repeating: 0, count: 64)
        // x = p (a coordinate outside the field) with any y.
        let p = try hex("a9fb57dba1eea9bc3e660a909d838d726e3bf623d52620282013481d1f6e5377")
        let outOfField = [0x04] + p + Array(good.suffix(32))
        let bad: [[UInt8]] = [
            [], [0x00], [0x04], offCurve, compressed, wrongPrefix, zeros, outOfField,
            Array(good.dropLast()), good + [0],
        ]
        for b in bad {
            #expect(throws: CryptoError.invalidPoint, "\(b.hexString)") { try ECPoint(group: group, encoded: b) }
        }
        // A point of another curve (P-256) does not decode on brainpoolP256r1.
        let nist = try ECKeyPair.generate(group: ECGroup(.secp256r1)).publicKey
        #expect(throws: CryptoError.invalidPoint) { try ECPoint(group: group, encoded: nist.encoded) }
    }

    @Test func rejectsInvalidScalarsAndMixedGroups() throws {
        let group = try ECGroup(.brainpoolP256r1)
        let n = group.order
        var nMinus1 = n
        nMinus1[nMinus1.count - 1] -= 1  // brainpoolP256r1's order ends in a7
        #expect(throws: CryptoError.invalidScalar) { try ECPrivateKey(group: group, scalar: [0]) }
        #expect(throws: CryptoError.invalidScalar) { try ECPrivateKey(group: group, scalar: []) }
        #expect(throws: CryptoError.invalidScalar) { try ECPrivateKey(group: group, scalar: n) }
        #expect(throws: CryptoError.invalidScalar) { try ECPrivateKey(group: group, scalar: [0xFF] + n) }
        _ = try ECPrivateKey(group: group, scalar: nMinus1)
        let g = try group.generator()
        #expect(throws: CryptoError.invalidScalar) { try g.multiplied(by: n) }
        // (n-1)G + G is the point at infinity.
        #expect(throws: CryptoError.pointAtInfinity) { try g.multiplied(by: nMinus1).adding(g) }
        let other = try ECGroup(.secp256r1).generator()
        #expect(throws: CryptoError.groupMismatch) { try g.adding(other) }
        let key = try ECKeyPair.generate(group: group)
        #expect(throws: CryptoError.groupMismatch) { try key.sharedSecret(with: other) }
        #expect(g != other)
    }

    @Test func randomScalarsAreInRange() throws {
        let group = try ECGroup(.secp521r1)
        let k = try group.randomScalar()
        #expect(k.count == group.orderSize)
        #expect(k != (try group.randomScalar()))
        _ = try ECPrivateKey(group: group, scalar: k)
    }
}
