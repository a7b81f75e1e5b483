import COpenPACE
import CardSimulator
import OpenPACEPeer
import SmartCard
import Testing

/// OpenPACE's terminal against eid's software card: the card side of eid (eid-sim's PACE and
/// secure messaging) checked by the independent implementation.
@Suite("OpenPACE's terminal against eid's software card", .serialized)
struct SimulatedCardPeerTests {
    /// EF.CardAccess read plainly by short file identifier 1C, as a terminal does first.
    static func readCardAccess(_ channel: CardChannel) throws -> [UInt8] {
        let response = try channel.transmit(CommandAPDU(ins: 0xB0, p1: 0x9C, p2: 0, ne: 256))
        try #require(response.isSuccess)
        return response.data
    }

    @Test func openPACEEstablishesSecureMessagingWithTheSoftwareCard() throws {
        let channel = SimulatedCardChannel(card: SimulatedEIDCard())
        let cardAccess = try Self.readCardAccess(channel)
        #expect(cardAccess == SimulatorSecurityInfos.cardAccess)
        // EF.CardSecurity needs PACE first.
        let early = try channel.transmit(CommandAPDU(ins: 0xB0, p1: 0x9D, p2: 0, ne: 256))
        #expect(early.statusWord == .securityStatusNotSatisfied)

        let terminal = try OpenPACETerminal(channel: channel, cardAccess: cardAccess, password: "123456")
        #expect(try terminal.establish() == .success)
        #expect(terminal.sessionKeys?.encryption.count == 16)

        // Protected READ BINARY of EF.CardSecurity, twice (the SSC moves on on both sides).
        for _ in 0..<2 {
            let response = try terminal.transmitProtected(CommandAPDU(ins: 0xB0, p1: 0x9D, p2: 0, ne: 256))
            #expect(response.statusWord == .success)
            #expect(response.data == Array(SimulatorSecurityInfos.defaultCardSecurity.prefix(256)))
        }
        // A short read: DO'97 with Le < 256, answered 6282 (end of file) under protection.
        let partial = try terminal.transmitProtected(CommandAPDU(ins: 0xB0, p1: 0x9C, p2: 0x10, ne: 255))
        #expect(partial.statusWord == StatusWord(rawValue: 0x6282))
        #expect(partial.data == Array(cardAccess.dropFirst(0x10)))
    }

    @Test func aWrongPINFromOpenPACEIsRefusedBySoftwareCard() throws {
        let channel = SimulatedCardChannel(card: SimulatedEIDCard())
        let cardAccess = try Self.readCardAccess(channel)
        let wrong = try OpenPACETerminal(channel: channel, cardAccess: cardAccess, password: "111111")
        #expect(throws: OpenPACETerminal.Failure.refused(step: 4, .retriesLeft(2))) { try wrong.establish() }
        #expect(!wrong.isEstablished)

        let right = try OpenPACETerminal(channel: channel, cardAccess: cardAccess, password: "123456")
        #expect(try right.establish() == .retriesLeft(2))
        let response = try right.transmitProtected(CommandAPDU(ins: 0xB0, p1: 0x9C, p2: 0, ne: 256))
        #expect(response.data == cardAccess)
    }

    @Test func theCANWorksToo() throws {
        let channel = SimulatedCardChannel(card: SimulatedEIDCard(profile: CardProfile(can: "123123")))
        let cardAccess = try Self.readCardAccess(channel)
        let terminal = try OpenPACETerminal(
            channel: channel, cardAccess: cardAccess, password: "123123", type: PACE_CAN)
        try terminal.establish()
        let response = try terminal.transmitProtected(CommandAPDU(ins: 0xB0, p1: 0x9D, p2: 0, ne: 256))
        #expect(response.data == Array(SimulatorSecurityInfos.defaultCardSecurity.prefix(256)))
    }
}
