import EAC
import EIDCrypto
import SmartCard
import Testing

@testable import CardSimulator

@Suite struct SimulatorSecurityInfosTests {
    /// The first four SecurityInfos of a real nPA (ef_cardaccess.json, "npa_real_card_openpace_dan").
    static let realCardPrefix =
        "300d060804007f0007020202020102"
        + "3012060a04007f000702020302020201020201" + "41"
        + "3012060a04007f0007020204020202010202010d"
        + "301c060904007f000702020302300c060704007f0007010202010d020141"

    @Test func cardAccessHasTheLayoutOfARealCard() throws {
        let set = try TLV.parse(SimulatorSecurityInfos.cardAccess)
        #expect(set.tag == 0x31)
        #expect(try set.children().map(\.bytes).flatMap { $0 }.hexString == Self.realCardPrefix)
    }

    @Test func decodedInfosMatchTheBrief() throws {
        let infos = try SecurityInfos(efCardAccess: SimulatorSecurityInfos.cardAccess)
        let pace = try #require(infos.paceInfos.first)
        #expect(pace.protocol.dotted == "0.4.0.127.0.7.2.2.4.2.2")
        #expect(pace.version == 2 && pace.parameterID == 13)
        let ca = try #require(infos.chipAuthenticationInfos.first)
        #expect(ca.protocol.dotted == "0.4.0.127.0.7.2.2.3.2.2")
        #expect(ca.version == 2 && ca.keyID == 65)
        #expect(infos.terminalAuthenticationInfo?.version == 2)
        #expect(SimulatorSecurityInfos.supportedPACEProtocols == [[UInt8](hex: "04007f00070202040202")!])
    }

    @Test func cardSecurityIsSignedByTheTestDocumentSignerUnderTheTestCSCA() throws {
        let infos = try PassiveAuthentication.verify(
            SimulatorSecurityInfos.defaultCardSecurity, csca: SimulatorTestPKI.csca)
        #expect(infos == SimulatorSecurityInfos.cardSecurityInfos())
        let selection = try ChipAuthentication.select(from: infos)
        #expect(selection.publicKey == SimulatorTestPKI.chipAuthenticationKey.publicKey)
        #expect(selection.keyID == 65 && selection.protocol == .ecdhAES128)
        // The committed material decodes, and the signer chains to the CSCA.
        #expect(try X509Certificate(der: SimulatorTestPKI.documentSigner.der) == SimulatorTestPKI.documentSigner)
        #expect(try SimulatorTestPKI.cscaKey.pkcs8().count > 0)
    }
}
