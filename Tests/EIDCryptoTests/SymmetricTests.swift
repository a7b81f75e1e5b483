import EIDCrypto
import Foundation
import SmartCard
import TestVectors
import Testing

@Suite("AES, digests, padding, constant-time compare, random")
struct SymmetricTests {
    @Test func aesCBCSecureMessagingExample() throws {
        // BSI worked example: IV = E(KSenc, SSC=1), CBC over the padded plaintext.
        for example in ["bsi_worked_example_aes128", "bsi_worked_example_dh_aes128"] {
            let key = try Fixture.hexValues("secure_messaging", key: example).bytes("ks_enc")
            let enc = try Fixture.hexValues("secure_messaging", key: example, "encrypt")
            let iv = try AES.encryptBlock(key: key, block: enc.bytes("ssc"))
            let padded = Padding.pad(try enc.bytes("plaintext"))
            let cipher = try AES.encryptCBC(key: key, iv: iv, data: padded)
            #expect(cipher.hexString == enc["ciphertext"], "\(example)")
            #expect(try AES.decryptCBC(key: key, iv: iv, data: cipher) == padded)
        }
    }

    @Test func cmacSecureMessagingExample() throws {
        // BSI worked example: MAC = CMAC(KSmac, SSC || pad(data))[:8].
        for example in ["bsi_worked_example_aes128", "bsi_worked_example_dh_aes128"] {
            let key = try Fixture.hexValues("secure_messaging", key: example).bytes("ks_mac")
            let mac = try Fixture.hexValues("secure_messaging", key: example, "mac")
            let tag = try CMAC.aes(key: key, message: Padding.pad(mac.bytes("ssc") + mac.bytes("data")))
            #expect(Array(tag.prefix(8)).hexString == mac["mac"], "\(example)")
        }
    }

    @Test func aesFIPS197Blocks() throws {
        // FIPS 197 appendix C.1-C.3.
        let plain = try hex("00112233445566778899aabbccddeeff")
        let cases = [
            ("000102030405060708090a0b0c0d0e0f", "69c4e0d86a7b0430d8cdb78070b4c55a"),
            ("000102030405060708090a0b0c0d0e0f1011121314151617", "dda97ca4864cdfe06eaf70a0ec0d7191"),
            ("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "8ea2b7ca516745bfeafc49904b496089"),
        ]
        for (k, c) in cases {
            #expect(try AES.encryptBlock(key: hex(k), block: plain).hexString == c)
            #expect(try AES.decryptBlock(key: hex(k), block: hex(c)) == plain)
            // One CBC block with a zero IV is the same as ECB.
            #expect(try AES.encryptCBC(key: hex(k), iv: [UInt8](repeating: 0, count: 16), data: plain).hexString == c)
        }
    }

    @Test func aesRejectsBadInput() {
        let key = [UInt8](repeating: 7, count: 16)
        let iv = [UInt8](repeating: 0, count: 16)
        #expect(throws: CryptoError.invalidDataLength(15)) {
            try AES.encryptCBC(key: key, iv: iv, data: [UInt8](repeating: 0, count: 15))
        }
        #expect(throws: CryptoError.invalidDataLength(8)) {
            try AES.decryptCBC(key: key, iv: [0, 0, 0, 0, 0, 0, 0, 0], data: iv)
        }
        #expect(throws: CryptoError.invalidKeyLength(17)) { try AES.encryptBlock(key: key + [0], block: iv) }
        #expect(throws: CryptoError.invalidDataLength(17)) { try AES.encryptBlock(key: key, block: iv + [0]) }
    }

    @Test func digests() throws {
        let abc = Array("abc".utf8)
        #expect(try Digest.sha1.hash(abc).hexString == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(try Digest.sha224.hash(abc).hexString == "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7")
        #expect(
            try Digest.sha256.hash(abc).hexString == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            try Digest.sha384.hash(abc).hexString
                == "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7")
        #expect(
            try Digest.sha512.hash(abc).hexString
                == "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd"
                + "454d4423643ce80e2a9ac94fa54ca49f")
        // ICAO G.1: K_seed = SHA-1(MRZ information).
        let g1 = try Fixture.hexValues("pace_ecdh_gm_brainpoolp256r1")
        #expect(try Digest.sha1.hash(Array(g1["mrz_information"]!.utf8)) == g1.bytes("k_seed_sha1_mrz_information"))
    }

    @Test func paddingMethod2() throws {
        #expect(Padding.pad([]) == [0x80] + [UInt8](repeating: 0, count: 15))
        #expect(Padding.pad([UInt8](repeating: 1, count: 16)).count == 32)
        #expect(Padding.pad([1, 2, 3], blockSize: 8) == [1, 2, 3, 0x80, 0, 0, 0, 0])
        for n in 0..<40 {
            let data = [UInt8](repeating: 0xAB, count: n)
            #expect(try Padding.unpad(Padding.pad(data)) == data)
        }
        // Data ending in 80 00 keeps those bytes: only the last 80 of the last block is padding.
        let tricky: [UInt8] = [0x80, 0x00]
        #expect(try Padding.unpad(Padding.pad(tricky)) == tricky)
    }

    @Test func paddingStripIsStrict() {
        let bad: [[UInt8]] = [
            [],
            [0x80],  // not a whole block
            [UInt8](repeating: 0, count: 16),  // no 80
            [1] + [UInt8](repeating: 0, count: 15),  // 01 instead of 80
            [0x80] + [UInt8](repeating: 0, count: 15) + [UInt8](repeating: 0, count: 16),  // 80 not in last block
            [UInt8](repeating: 0, count: 15) + [0x81],
        ]
        for b in bad { #expect(throws: CryptoError.invalidPadding) { try Padding.unpad(b) } }
    }

    @Test func constantTimeEquals() {
        #expect(ConstantTime.equals([1, 2, 3], [1, 2, 3]))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2, 4]))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2]))
        #expect(ConstantTime.equals([], []))
    }

    @Test func secureRandom() throws {
        let a = try SecureRandom.bytes(32)
        let b = try SecureRandom.bytes(32)
        #expect(a.count == 32)
        #expect(a != b)
        #expect(try SecureRandom.bytes(0).isEmpty)
    }
}
