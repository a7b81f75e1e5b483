import EIDCrypto
import SmartCard
import TestVectors
import Testing

@Suite("TR-03110 KDF (TR-03110-3 A.2.3)")
struct KDFTests {
    struct Case: Decodable {
        let name: String
        let secret: String
        let nonce: String?
        let counter: UInt32
        let cipher: String
        let key: String
    }
    struct File: Decodable {
        struct Values: Decodable { let cases: [Case] }
        let values: Values
    }

    @Test func allAESCases() throws {
        let cases = try Fixture.decode(File.self, from: "kdf").values.cases.filter { $0.cipher.hasPrefix("AES") }
        #expect(cases.count == 13)
        for c in cases {
            let length = Int(c.cipher.dropFirst(4))! / 8
            let counter = try #require(KDF.Counter(rawValue: c.counter))
            let key = try KDF.derive(
                secret: hex(c.secret), nonce: hex(c.nonce ?? ""), counter: counter, keyLength: length)
            #expect(key.hexString == c.key, "\(c.name)")
        }
    }

    @Test func rejectsUnknownKeyLength() {
        #expect(throws: CryptoError.invalidKeyLength(20)) { try KDF.derive(secret: [1], counter: .mac, keyLength: 20) }
    }
}
