import EAC
import SmartCard
import TestVectors
import Testing

@Suite("Choosing the PACEInfo eid can run (TR-03110-3 A.1.1.1)")
struct PACESelectionTests {
    static func realFiles() throws -> [(name: String, infos: SecurityInfos)] {
        let files = try #require(Fixture.values("ef_cardaccess")["files"] as? [[String: Any]])
        return try files.map { ($0["name"] as! String, try SecurityInfos(efCardAccess: hex($0["hex"] as! String))) }
    }

    static func pace(_ name: String, _ id: Int?) -> SecurityInfo {
        .pace(PACEInfo(protocol: OID(name: name)!, version: 2, parameterID: id))
    }

    @Test func everyRealCardAccessFileYieldsECDHGenericMappingAES128() throws {
        let files = try Self.realFiles()
        #expect(files.count == 6)
        for (name, infos) in files {
            let chosen = try infos.runnablePACEInfo()
            #expect(chosen.paceProtocol == .ecdhGenericMappingAES128, "\(name)")
            #expect(chosen.parameterID == 13, "\(name)")
        }
    }

    /// The CAM card's file with its two PACEInfos swapped: the CAM one comes first.
    @Test func chipAuthenticationMappingFirstIsSkipped() throws {
        let cam = try #require(try Self.realFiles().first { $0.name == "npa_card_with_cam_openpace_ca3" }).infos
        var reordered = cam.infos
        let firstPACE = try #require(reordered.firstIndex { if case .pace = $0 { true } else { false } })
        let gm = reordered.remove(at: firstPACE)
        reordered.append(gm)
        let infos = try SecurityInfos(efCardAccess: SecurityInfos(reordered).der)
        #expect(infos.paceInfos.first?.paceProtocol?.mapping == .chipAuthentication)
        #expect(try infos.runnablePACEInfo().paceProtocol == .ecdhGenericMappingAES128)
    }

    @Test func unsupportedVariantsBeforeTheRunnableOneAreSkipped() throws {
        let infos = try SecurityInfos(
            der: SecurityInfos([
                Self.pace("id-PACE-DH-GM-AES-CBC-CMAC-128", 0),
                Self.pace("id-PACE-ECDH-IM-AES-CBC-CMAC-128", 13),
                Self.pace("id-PACE-ECDH-CAM-AES-CBC-CMAC-256", 13),
                Self.pace("id-PACE-ECDH-GM-3DES-CBC-CBC", 13),
                Self.pace("id-PACE-ECDH-GM-AES-CBC-CMAC-128", 40),
                Self.pace("id-PACE-ECDH-GM-AES-CBC-CMAC-256", 2),
                Self.pace("id-PACE-ECDH-GM-AES-CBC-CMAC-256", 13),
            ]).der)
        let chosen = try infos.runnablePACEInfo()
        #expect(chosen.paceProtocol == .ecdhGenericMappingAES256)
        #expect(chosen.parameterID == 13)
    }

    /// A PACEInfo with proprietary domain parameter id 32, described by a PACEDomainParameterInfo,
    /// before a standardized one: the standardized one is run.
    @Test func proprietaryDomainParametersAreSkippedForAStandardizedOffer() throws {
        let proprietary = SecurityInfo.paceDomainParameter(
            PACEDomainParameterInfo(
                protocol: OID.idPACE.appending(2), domainParameter: .standardized(13), parameterID: 32))
        let infos = try SecurityInfos(
            der: SecurityInfos([
                Self.pace("id-PACE-ECDH-GM-AES-CBC-CMAC-128", 32), proprietary,
                Self.pace("id-PACE-ECDH-GM-AES-CBC-CMAC-128", 13),
            ]).der)
        #expect(infos.paceDomainParameterInfos.count == 1)
        #expect(try infos.runnablePACEInfo().parameterID == 13)
    }

    @Test func onlyProprietaryOrUnsupportedOffersGiveATypedErrorThatNamesThem() throws {
        let proprietary = PACEInfo(protocol: PACEProtocol.ecdhGenericMappingAES128.oid, version: 2, parameterID: 32)
        let dh = PACEInfo(
            protocol: OID(name: "id-PACE-DH-GM-AES-CBC-CMAC-128")!, version: 2, parameterID: 0)
        let infos = SecurityInfos([.pace(proprietary), .pace(dh)])
        #expect(throws: PACEError.noRunnablePACE(offered: [proprietary, dh])) { try infos.runnablePACEInfo() }
        let text = PACEError.noRunnablePACE(offered: [proprietary, dh]).description
        #expect(text.contains("eid cannot run"))
        #expect(text.contains("id-PACE-ECDH-GM-AES-CBC-CMAC-128 with domain parameters 32"))
        #expect(text.contains("proprietary domain parameters 32"))
        #expect(text.contains("Diffie-Hellman"))
        #expect(throws: PACEError.noRunnablePACE(offered: [])) { try SecurityInfos([]).runnablePACEInfo() }
        // PACE itself refuses the proprietary PACEInfo with its own error, before any APDU.
        #expect(throws: PACEError.proprietaryDomainParameters(32)) {
            try PACE(channel: ScriptedChannel([]), paceInfo: proprietary, password: .can("123456"))
        }
    }
}
