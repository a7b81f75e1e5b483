import EIDCrypto
import SmartCard
import TestVectors
import Testing

@Suite("AES-CMAC (RFC 4493, NIST SP 800-38B)")
struct CMACTests {
    struct Case: Decodable {
        let key: String
        let message: String
        let tag: String
    }
    struct Values: Decodable {
        let cases: [Case]
        let extraMessages: [Case]

        enum CodingKeys: String, CodingKey {
            case cases
            case extraMessages = "extra_sp800_38b_2016_20_byte_message"
        }
    }
    struct File: Decodable { let values: Values }

    @Test func allPublishedTags() throws {
        let file = try Fixture.decode(File.self, from: "cmac")
        let cases = file.values.cases + file.values.extraMessages
        #expect(cases.count == 13)
        for c in cases {
            let tag = try CMAC.aes(key: hex(c.key), message: hex(c.message))
            #expect(tag.hexString == c.tag, "key \(c.key) message \(c.message)")
        }
    }

    @Test func rejectsWrongKeyLength() {
        #expect(throws: CryptoError.invalidKeyLength(15)) {
            try CMAC.aes(key: [UInt8](repeating: 1, count: 15), message: [])
        }
    }

    @Test func subkeyL() throws {
        // L = AES(K, 0^128) is the first step of the subkey generation (RFC 4493 2.3).
        let v = try Fixture.hexValues("cmac", key: "subkeys_aes128")
        #expect(try AES.encryptBlock(key: v.bytes("k"), block: [UInt8](repeating: 0, count: 16)).hexString == v["l"])
    }
}
