import EAC
import EIDCrypto
import SmartCard
import TestVectors
import Testing

/// The published PACE traces as scripts: ICAO 9303-11 G.1 (MRZ) and the BSI worked example (PIN).
enum PACETrace {
    static func icaoG1() throws -> (values: [String: String], script: [(String, String)]) {
        let v = try Fixture.hexValues("pace_ecdh_gm_brainpoolp256r1")
        let script = [
            (v["apdu_mse_set_at"]!, "9000"),
            (v["apdu_ga1_cmd"]!, v["apdu_ga1_rsp"]!),
            (v["apdu_ga2_cmd"]!, v["apdu_ga2_rsp"]!),
            (v["apdu_ga3_cmd"]!, v["apdu_ga3_rsp"]!),
            (v["apdu_ga4_cmd"]!, v["apdu_ga4_rsp"]!),
        ]
        return (v, script)
    }

    /// The BSI example gives values, not APDUs: the APDUs are assembled from them as
    /// TR-03110-3 B.1 lays them out, with a CAR (tag 87) added to step 4's answer.
    static let bsiCAR = "DECVCAAT00001"

    static func bsiWorkedExample() throws -> (values: [String: String], script: [(String, String)]) {
        let v = try Fixture.hexValues("eac_worked_example_bsi_ecdh")
        let car: String = Array(bsiCAR.utf8).hexString
        func point(_ key: String) -> String { String(v[key]!.dropFirst(2)) }
        let z: String = v["encrypted_nonce_z"]!
        let tPCD: String = v["token_terminal_t_pcd"]!
        let tPICC: String = v["token_chip_t_picc"]!
        var script: [(String, String)] = []
        script.append(("0022c1a40f800a04007f00070202040202830103", "9000"))
        script.append(("10860000027c0000", "7c128010" + z + "9000"))
        script.append(
            (
                "10860000457c43814104" + point("map_terminal_public_key") + "00",
                "7c43824104" + point("map_chip_public_key") + "9000"
            ))
        script.append(
            (
                "10860000457c43834104" + point("eph_terminal_public_key") + "00",
                "7c43844104" + point("eph_chip_public_key") + "9000"
            ))
        script.append(("008600000c7c0a8508" + tPCD + "00", "7c198608" + tPICC + "870d" + car + "9000"))
        return (v, script)
    }

    static func keySource(_ v: [String: String]) throws -> FixedPACEKeySource {
        FixedPACEKeySource(
            mapping: try v.bytes("map_terminal_private_key"), keyAgreement: try v.bytes("eph_terminal_private_key"))
    }
}

@Suite("PACE steps (TR-03110-2 3.2, ICAO 9303-11 4.4) against published values")
struct PACEStepsTests {
    /// Checks every intermediate value of a trace, for the terminal's and the card's view.
    func checkSteps(_ v: [String: String], password: PACEPassword) throws {
        let steps = try PACESteps(protocol: .ecdhGenericMappingAES128, domainParameterID: 13)
        let kpi = try steps.passwordKey(password)
        #expect(kpi.hexString == v["k_pi"] ?? kpi.hexString)
        let nonce = try steps.decryptNonce(v.bytes("encrypted_nonce_z"), passwordKey: kpi)
        #expect(nonce.hexString == v["nonce_s"])
        #expect(try steps.encryptNonce(nonce, passwordKey: kpi).hexString == v["encrypted_nonce_z"])

        let group = steps.group
        let mapT = try steps.mappingKeyPair(ECPrivateKey(group: group, scalar: v.bytes("map_terminal_private_key")))
        let mapC = try steps.mappingKeyPair(ECPrivateKey(group: group, scalar: v.bytes("map_chip_private_key")))
        #expect(mapT.publicKey.encoded.hexString == v["map_terminal_public_key"])
        #expect(mapC.publicKey.encoded.hexString == v["map_chip_public_key"])
        let gT = try steps.mapGenerator(nonce: nonce, mappingKey: mapT, peerMappingKey: mapC.publicKey)
        let gC = try steps.mapGenerator(nonce: nonce, mappingKey: mapC, peerMappingKey: mapT.publicKey)
        #expect(gT.encoded.hexString == v["mapped_generator"])
        #expect(gT == gC)

        let ephT = try steps.ephemeralKeyPair(
            ECPrivateKey(group: group, scalar: v.bytes("eph_terminal_private_key")), generator: gT)
        let ephC = try steps.ephemeralKeyPair(
            ECPrivateKey(group: group, scalar: v.bytes("eph_chip_private_key")), generator: gC)
        #expect(ephT.publicKey.encoded.hexString == v["eph_terminal_public_key"])
        #expect(ephC.publicKey.encoded.hexString == v["eph_chip_public_key"])
        let kT = try steps.sharedSecret(ephemeralKey: ephT, peerEphemeralKey: ephC.publicKey)
        #expect(kT.hexString == v["shared_secret_k"])
        #expect(try steps.sharedSecret(ephemeralKey: ephC, peerEphemeralKey: ephT.publicKey) == kT)
        let keys = try steps.sessionKeys(sharedSecret: kT)
        #expect(keys.encryption.hexString == v["ks_enc"])
        #expect(keys.mac.hexString == v["ks_mac"])

        if let input = v["token_input_terminal"] {
            #expect(steps.authenticationTokenInput(over: ephC.publicKey).hexString == input)
            #expect(steps.authenticationTokenInput(over: ephT.publicKey).hexString == v["token_input_chip"])
        }
        let tPCD = try steps.authenticationToken(macKey: keys.mac, over: ephC.publicKey)
        let tPICC = try steps.authenticationToken(macKey: keys.mac, over: ephT.publicKey)
        #expect(tPCD.hexString == v["token_terminal_t_pcd"])
        #expect(tPICC.hexString == v["token_chip_t_picc"])
        #expect(try steps.verifyAuthenticationToken(tPICC, macKey: keys.mac, over: ephT.publicKey))
        #expect(try !steps.verifyAuthenticationToken(tPCD, macKey: keys.mac, over: ephT.publicKey))
    }

    @Test func icaoG1MRZ() throws {
        let v = try Fixture.hexValues("pace_ecdh_gm_brainpoolp256r1")
        let password = PACEPassword.mrz(
            documentNumber: v["mrz_document_number"]!, dateOfBirth: v["mrz_date_of_birth"]!,
            dateOfExpiry: v["mrz_date_of_expiry"]!)
        #expect(try password.sharedSecret().hexString == v["k_seed_sha1_mrz_information"])
        #expect(try PACEPassword.mrz(information: v["mrz_information"]!).sharedSecret() == password.sharedSecret())
        try checkSteps(v, password: password)
    }

    @Test func bsiWorkedExamplePIN() throws {
        let v = try Fixture.hexValues("eac_worked_example_bsi_ecdh")
        try checkSteps(v, password: .pin("123456"))
    }

    @Test func passwordKeysAndReferences() throws {
        // KDF_pi of a CAN: the digits as bytes (kdf.json "CAN 123456 K_pi").
        #expect(try PACEPassword.can("123456").key(keyLength: 16).hexString == "591468cda83d65219cccb8560233600f")
        #expect(PACEPassword.mrz(information: "x").type.rawValue == 1)
        #expect(PACEPassword.can("1").type.rawValue == 2)
        #expect(PACEPassword.pin("1").type.rawValue == 3)
        #expect(PACEPassword.puk("1").type.rawValue == 4)
        #expect(!String(describing: PACEPassword.pin("987654")).contains("987654"))
        #expect(!String(reflecting: PACEPassword.pin("987654")).contains("987654"))
        #expect(PACEPassword.mrzCheckDigit("L898902C") == 3)  // ICAO 9303-3 example
    }

    @Test func rejectsUnsupportedProtocolsAndCurves() throws {
        let dh = try #require(PACEProtocol(oid: OID(name: "id-PACE-DH-GM-AES-CBC-CMAC-128")!))
        #expect(throws: PACEError.unsupportedProtocol(dh.oid)) { try PACESteps(protocol: dh, domainParameterID: 0) }
        let im = try #require(PACEProtocol(oid: OID(name: "id-PACE-ECDH-IM-AES-CBC-CMAC-128")!))
        #expect(throws: PACEError.unsupportedProtocol(im.oid)) { try PACESteps(protocol: im, domainParameterID: 13) }
        #expect(throws: PACEError.unsupportedDomainParameter(2)) {
            try PACESteps(protocol: .ecdhGenericMappingAES128, domainParameterID: 2)
        }
        #expect(
            PACEProtocol(oid: OID(name: "id-PACE-ECDH-CAM-AES-CBC-CMAC-256")!)?.mapping
                == .chipAuthentication)
        #expect(PACEProtocol(oid: OID(name: "id-CA-ECDH-AES-CBC-CMAC-128")!) == nil)
    }

    @Test func identicalEphemeralKeysAreRefused() throws {
        let steps = try PACESteps(protocol: .ecdhGenericMappingAES128, domainParameterID: 13)
        let key = try ECKeyPair.generate(group: steps.group)
        #expect(throws: PACEError.invalidKeyAgreement(step: 3)) {
            try steps.sharedSecret(ephemeralKey: key, peerEphemeralKey: key.publicKey)
        }
    }
}

@Suite("PACE terminal over APDUs")
struct PACETerminalTests {
    @Test func icaoG1AllNineAPDUs() throws {
        let (v, script) = try PACETrace.icaoG1()
        let card = try ScriptedChannel(script)
        let pace = try PACE(
            channel: card, protocol: .ecdhGenericMappingAES128, domainParameterID: 13,
            password: .mrz(information: v["mrz_information"]!), keySource: PACETrace.keySource(v))
        let result = try pace.run()
        #expect(card.isFinished)
        #expect(result.sessionKeys.encryption.hexString == v["ks_enc"])
        #expect(result.sessionKeys.mac.hexString == v["ks_mac"])
        #expect(result.idPICC.hexString == String(v["eph_chip_public_key"]!.dropFirst(2).prefix(64)))
        #expect(result.chipEphemeralPublicKey.hexString == v["eph_chip_public_key"])
        #expect(result.setAuthenticationTemplateStatus == .success)
        #expect(result.mostRecentCAR == nil)
        #expect(result.previousCAR == nil)
    }

    @Test func icaoG1FromEFCardAccess() throws {
        let (v, script) = try PACETrace.icaoG1()
        let info = try #require(SecurityInfos(efCardAccess: v.bytes("ef_cardaccess")).paceInfos.first)
        let card = try ScriptedChannel(script)
        let pace = try PACE(
            channel: card, paceInfo: info, password: .mrz(information: v["mrz_information"]!),
            keySource: PACETrace.keySource(v))
        let (result, secure) = try pace.establishSecureMessaging()
        #expect(result.sessionKeys.mac.hexString == v["ks_mac"])
        #expect(secure.underlying === card)
        #expect(secure.ssc == [UInt8](repeating: 0, count: 16))
    }

    @Test func bsiWorkedExampleWithPIN() throws {
        let (v, script) = try PACETrace.bsiWorkedExample()
        let card = try ScriptedChannel(script)
        let pace = try PACE(
            channel: card, protocol: .ecdhGenericMappingAES128, domainParameterID: 13,
            password: .pin("123456"), keySource: PACETrace.keySource(v))
        let result = try pace.run()
        #expect(card.isFinished)
        #expect(result.sessionKeys.encryption.hexString == v["ks_enc"])
        #expect(result.sessionKeys.mac.hexString == v["ks_mac"])
        #expect(result.mostRecentCAR == PACETrace.bsiCAR)
        #expect(result.previousCAR == nil)
    }

    @Test func chatIsSentInMSESetAT() throws {
        // CHAT of an authentication terminal (id-AT), as in a terminal certificate.
        let chat = try hex("7f4c12" + "060904007f000703010202" + "53050000000110")
        let command = try CommandAPDU.mseSetAT(
            pace: PACEProtocol.ecdhGenericMappingAES128.oid, password: .pin, chat: chat)
        #expect(command.bytes.hexString == "0022c1a424800a04007f00070202040202830103" + chat.hexString)
        let parsed = try PACEAuthenticationTemplate(command: command)
        #expect(parsed.password == .pin)
        #expect(parsed.protocol == PACEProtocol.ecdhGenericMappingAES128.oid)
        #expect(parsed.chat == chat)
    }

    /// Runs the G.1 trace with the response of `step` (1...4) replaced; returns the error.
    func g1Failure(step: Int, response: String, password: PACEPassword? = nil) throws -> Error? {
        var (v, script) = try PACETrace.icaoG1()
        script[step].1 = response
        let card = try ScriptedChannel(Array(script.prefix(step + 1)))
        let pace = try PACE(
            channel: card, protocol: .ecdhGenericMappingAES128, domainParameterID: 13,
            password: password ?? .mrz(information: v["mrz_information"]!), keySource: PACETrace.keySource(v))
        do {
            _ = try pace.run()
            return nil
        } catch {
            return error
        }
    }

    @Test func wrongPasswordCarriesTheRetryCounter() throws {
        let error = try g1Failure(step: 4, response: "63c2")
        #expect(error as? PACEError == .generalAuthenticateFailed(step: 4, .retriesLeft(2)))
        #expect((error as? PACEError)?.retryCounter == 2)
    }

    @Test func statusWordOfEachStepIsReported() throws {
        for step in 1...4 {
            let error = try g1Failure(step: step, response: "6a80")
            #expect(error as? PACEError == .generalAuthenticateFailed(step: step, .wrongData), "step \(step)")
        }
    }

    @Test func truncatedOrGarbageResponsesAreMalformed() throws {
        let (v, _) = try PACETrace.icaoG1()
        for step in 1...4 {
            let good = v["apdu_ga\(step)_rsp"]!
            let data = String(good.dropLast(4))
            var bad = [
                "9000",  // no data
                String(data.dropLast(2)) + "9000",  // truncated
                "ffff9000",  // garbage
                "7d" + data.dropFirst(2) + "9000",  // wrong template
                data + "00" + "9000",  // trailing byte
                "7c0299009000",  // template without the expected object
            ]
            if step == 2 || step == 3 {
                // A point off the curve: flip the last byte of Y.
                var b = try hex(data)
                b[b.count - 1] ^= 0x01
                bad.append(b.hexString + "9000")
            }
            if step == 1 { bad.append("7c11800f" + String(repeating: "00", count: 15) + "9000") }
            for response in bad {
                let error = try g1Failure(step: step, response: response)
                #expect(error as? PACEError == .malformedResponse(step: step), "step \(step): \(response)")
            }
        }
    }

    @Test func wrongChipTokenIsRejected() throws {
        let error = try g1Failure(step: 4, response: "7c0a86083abb9674bce93c099000")
        #expect(error as? PACEError == .tokenMismatch)
    }

    @Test func chipEchoingTheTerminalKeyIsRejected() throws {
        let (v, _) = try PACETrace.icaoG1()
        let echo = "7c438441" + v["eph_terminal_public_key"]! + "9000"
        let error = try g1Failure(step: 3, response: echo)
        #expect(error as? PACEError == .invalidKeyAgreement(step: 3))
    }

    @Test func setAuthenticationTemplateStatusReachesTheCaller() throws {
        var (v, script) = try PACETrace.icaoG1()
        for sw in ["63c2", "63c1", "6283"] {
            script[0].1 = sw
            let card = try ScriptedChannel(script)
            let pace = try PACE(
                channel: card, protocol: .ecdhGenericMappingAES128, domainParameterID: 13,
                password: .mrz(information: v["mrz_information"]!), keySource: PACETrace.keySource(v))
            let result = try pace.run()
            #expect(result.setAuthenticationTemplateStatus.rawValue == UInt16(sw, radix: 16))
        }
        for sw in ["6a88", "6982", "6d00"] {
            script[0].1 = sw
            let card = try ScriptedChannel(Array(script.prefix(1)))
            let pace = try PACE(
                channel: card, protocol: .ecdhGenericMappingAES128, domainParameterID: 13,
                password: .mrz(information: v["mrz_information"]!))
            #expect(throws: PACEError.setAuthenticationTemplateFailed(StatusWord(rawValue: UInt16(sw, radix: 16)!))) {
                try pace.run()
            }
        }
        v = [:]
    }

    @Test func paceInfoWithoutStandardizedParametersIsUnsupported() throws {
        let info = PACEInfo(protocol: PACEProtocol.ecdhGenericMappingAES128.oid, version: 2, parameterID: nil)
        #expect(throws: PACEError.unsupportedDomainParameter(nil)) {
            try PACE(channel: ScriptedChannel([]), paceInfo: info, password: .can("123456"))
        }
        let dh = PACEInfo(
            protocol: OID(name: "id-PACE-DH-GM-AES-CBC-CMAC-128")!, version: 2, parameterID: 0)
        #expect(throws: PACEError.unsupportedProtocol(dh.protocol)) {
            try PACE(channel: ScriptedChannel([]), paceInfo: dh, password: .can("123456"))
        }
    }
}
