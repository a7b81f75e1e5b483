import EAC
import SmartCard
import Testing

@testable import Workflows

@Suite struct EIDCardStateTests {
    /// PACEInfo ECDH-GM-AES-128 with proprietary domain parameters 32, then ECDH-GM-AES-256 on
    /// brainpoolP256r1 (13).
    static let proprietaryFirst =
        "3128" + "3012060a04007f00070202040202020102020120" + "3012060a04007f0007020204020402010202010d"

    @Test func theRunnablePACEInfoIsChosenEvenWhenNotFirst() throws {
        let channel = FakeCardChannel(mseStatus: .success)
        channel.cardAccess = [UInt8](hex: Self.proprietaryFirst)!
        let info = try #require(try EIDCardState.paceInfo(channel))
        #expect(info.paceProtocol == .ecdhGenericMappingAES256)
        #expect(info.parameterID == 13)
    }

    @Test func aCardWithOnlyProprietaryParametersIsNotUsable() throws {
        let channel = FakeCardChannel(mseStatus: .success)
        channel.cardAccess = [UInt8](hex: "3114" + "3012060a04007f00070202040202020102020120")!
        #expect(try EIDCardState.paceInfo(channel) == nil)
    }
}
