import EAC
import EIDCrypto
import SmartCard
import TestVectors
import Testing

/// Chip Authentication v2 and passive authentication: the BSI worked example reproduced on both
/// sides, the command encodings and the card-side rules.
@Suite struct ChipAuthenticationTests {
    static func workedExample() throws -> [String: String] { try Fixture.hexValues("eac_worked_example_bsi_ecdh") }

    @Test func bsiWorkedExampleKeyAgreementKeysAndToken() throws {
        let v = try Self.workedExample()
        let group = try ECGroup(.brainpoolP256r1)
        let chipKey = try ECKeyPair(group: group, privateScalar: try v.bytes("ca_chip_static_private_key"))
        #expect(chipKey.publicKey.encoded == (try v.bytes("ca_chip_static_public_key")))
        let terminalKey = try ECKeyPair(group: group, privateScalar: try v.bytes("ca_terminal_eph_private_key"))
        #expect(terminalKey.publicKey.encoded == (try v.bytes("ca_terminal_eph_public_key")))
        #expect(try terminalKey.sharedSecret(with: chipKey.publicKey) == (try v.bytes("ca_shared_secret_k")))
        let nonce = try v.bytes("ca_nonce_r_picc")

        // Card side: answers 7C { 81 r_PICC, 82 T_PICC } with the example's nonce.
        let card = ChipAuthenticationCard(protocol: .ecdhAES128, keyID: 1, staticKey: chipKey)
        let command = try CommandAPDU.generalAuthenticate(chipAuthentication: terminalKey.publicKey)
        let (response, cardKeys) = try card.generalAuthenticate(
            data: command.data, announcedKey: terminalKey.publicKey.x, nonce: nonce)
        #expect(
            response.hexString == "7c148108" + nonce.hexString + "8208" + (try v.bytes("ca_token_t_picc")).hexString)
        #expect(cardKeys.encryption == (try v.bytes("ca_ks_enc")))
        #expect(cardKeys.mac == (try v.bytes("ca_ks_mac")))

        // Terminal side: the same keys, and the token checks.
        let result = try ChipAuthentication.terminalKeys(
            protocol: .ecdhAES128, chipKey: chipKey.publicKey, ephemeralKey: terminalKey, nonce: nonce,
            token: try v.bytes("ca_token_t_picc"))
        #expect(result.sessionKeys == cardKeys)
        var badToken = try v.bytes("ca_token_t_picc")
        badToken[0] ^= 1
        #expect(throws: ChipAuthenticationError.tokenMismatch) {
            try ChipAuthentication.terminalKeys(
                protocol: .ecdhAES128, chipKey: chipKey.publicKey, ephemeralKey: terminalKey, nonce: nonce,
                token: badToken)
        }
    }

    @Test func bsiWorkedExampleCardSecurityVerifiesAndNamesTheCAKey() throws {
        let v = try Self.workedExample()
        // The example's CSCA is not published: check the signature with the signer certificate inside.
        let infos = try PassiveAuthentication.verify(try v.bytes("ef_cardsecurity"), csca: nil)
        let selection = try ChipAuthentication.select(from: infos)
        #expect(selection.protocol == .ecdhAES128)
        #expect(selection.keyID == 1)
        #expect(selection.publicKey.encoded == (try v.bytes("ca_chip_static_public_key")))
        var tampered = try v.bytes("ef_cardsecurity")
        tampered[100] ^= 0x01
        #expect(throws: ChipAuthenticationError.passiveAuthenticationFailed) {
            try PassiveAuthentication.verify(tampered, csca: nil)
        }
    }

    @Test func commandEncodings() throws {
        #expect(
            try CommandAPDU.mseSetAT(chipAuthentication: .ecdhAES128, keyID: 41).bytes.hexString
                == "002241a40f800a04007f00070202030202840129")
        #expect(
            try CommandAPDU.mseSetAT(chipAuthentication: .ecdhAES256, keyID: nil).bytes.hexString
                == "002241a40c800a04007f00070202030204")
        let key = try ECKeyPair.generate(group: try ECGroup(.brainpoolP256r1))
        #expect(
            try CommandAPDU.generalAuthenticate(chipAuthentication: key.publicKey).bytes.hexString
                == "00860000457c438041" + key.publicKey.encoded.hexString + "00")
        #expect(try ChipAuthenticationTemplate(data: [UInt8](hex: "800a04007f00070202030202840129")!).keyID == 41)
        for bad in ["", "840129", "800a04007f000702020302028401299000", "800a04007f00070202030202850129"] {
            #expect(throws: ChipAuthenticationError.malformedTemplate) {
                try ChipAuthenticationTemplate(data: [UInt8](hex: bad)!)
            }
        }
    }

    @Test func cardSideRules() throws {
        let group = try ECGroup(.brainpoolP256r1)
        let card = ChipAuthenticationCard(
            protocol: .ecdhAES128, keyID: 65, staticKey: try ECKeyPair.generate(group: group))
        func sw(_ body: () throws -> Void) -> StatusWord? {
            do {
                try body()
                return .success
            } catch CardError.statusWord(let sw) { return sw } catch { return nil }
        }
        #expect(
            sw {
                try card.setAuthenticationTemplate(
                    data: CommandAPDU.mseSetAT(chipAuthentication: .ecdhAES128, keyID: 65).data)
            } == .success)
        #expect(
            sw {
                try card.setAuthenticationTemplate(
                    data: CommandAPDU.mseSetAT(chipAuthentication: .ecdhAES128, keyID: nil).data)
            } == .success)
        #expect(
            sw {
                try card.setAuthenticationTemplate(
                    data: CommandAPDU.mseSetAT(chipAuthentication: .ecdhAES128, keyID: 1).data)
            } == .referenceDataNotFound)
        #expect(
            sw {
                try card.setAuthenticationTemplate(
                    data: CommandAPDU.mseSetAT(chipAuthentication: .ecdhAES256, keyID: 65).data)
            } == .wrongData)
        let terminal = try ECKeyPair.generate(group: group)
        let data = try CommandAPDU.generalAuthenticate(chipAuthentication: terminal.publicKey).data
        // Without TA: 6985. Another key than TA announced: 6A80. A point off the curve: 6A80.
        #expect(sw { _ = try card.generalAuthenticate(data: data, announcedKey: nil) } == .conditionsOfUseNotSatisfied)
        #expect(
            sw { _ = try card.generalAuthenticate(data: data, announcedKey: [UInt8](repeating: 1, count: 32)) }
                == .wrongData)
        var offCurve = data
        offCurve[offCurve.count - 1] ^= 1
        #expect(
            sw { _ = try card.generalAuthenticate(data: offCurve, announcedKey: terminal.publicKey.x) } == .wrongData)
        let (response, keys) = try card.generalAuthenticate(data: data, announcedKey: terminal.publicKey.x)
        let parsed = try DynamicAuthenticationData(bytes: response)
        let result = try ChipAuthentication.terminalKeys(
            protocol: .ecdhAES128, chipKey: card.staticKey.publicKey, ephemeralKey: terminal,
            nonce: try #require(parsed[0x81]), token: try #require(parsed[0x82]))
        #expect(result.sessionKeys == keys)
    }
}
