import CardAccess
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
        let infos = try TLV.parse(SimulatorSecurityInfos.cardAccess).children()
        let decoded = try infos.map { info -> (oid: [UInt8], ints: [[UInt8]]) in
            let parts = try info.children()
            #expect(info.tag == 0x30 && parts[0].tag == 0x06)
            return (parts[0].value, parts.dropFirst().filter { $0.tag == 0x02 }.map(\.value))
        }
        let pace = try #require(decoded.first { $0.oid == DER.objectIdentifierContent("0.4.0.127.0.7.2.2.4.2.2") })
        #expect(pace.ints == [[2], [13]])
        let ca = try #require(decoded.first { $0.oid == DER.objectIdentifierContent("0.4.0.127.0.7.2.2.3.2.2") })
        #expect(ca.ints == [[2], [65]])
        let ta = try #require(decoded.first { $0.oid == DER.objectIdentifierContent("0.4.0.127.0.7.2.2.2") })
        #expect(ta.ints == [[2]])
    }

    @Test func derEncodings() {
        #expect(DER.objectIdentifierContent("0.4.0.127.0.7.2.2.4.2.2").hexString == "04007f00070202040202")
        #expect(DER.objectIdentifierContent("1.2.840.113549.1.7.2").hexString == "2a864886f70d010702")
        #expect(DER.integer(0).bytes.hexString == "020100")
        #expect(DER.integer(200).bytes.hexString == "020200c8")
        #expect(DER.setOf([TLV(tag: 0x30, value: [2]), TLV(tag: 0x30, value: [1])]).bytes.hexString == "3106300101300102")
    }

    @Test func cardSecurityPlaceholderIsDER() throws {
        let contentInfo = try TLV.parse(SimulatorSecurityInfos.cardSecurityPlaceholder)
        #expect(try contentInfo.child(0x06)?.value.hexString == "2a864886f70d010702")
    }
}
