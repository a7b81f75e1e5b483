import Foundation
import SmartCard
import Testing

@testable import CardSimulator

@Suite struct SimulatedEIDCardTests {
    let cardAccess = SimulatorSecurityInfos.cardAccess

    @Test func selectByFileIDAndApplication() {
        let card = poweredCard()
        #expect(exchange(card, "00a4020c02011c") == "9000")
        #expect(exchange(card, "00a4000c023f00") == "9000")
        #expect(exchange(card, "00a4000c") == "9000")
        #expect(exchange(card, "00a4000c02011c") == "9000")
        #expect(exchange(card, "00a4020c020101") == "6a82")
        #expect(exchange(card, "00a4040c09e80704007f00070302") == "9000")
        #expect(exchange(card, "00a4040c09e80704007f00070399") == "6a82")
        #expect(exchange(card, "00a4020002011c") == "6a86")  // P2 00 (FCI) not offered
        #expect(exchange(card, "00a4080c02011c") == "6a86")
        #expect(exchange(card, "00a4020c03011c00") == "6700")
    }

    @Test func readBinaryByShortFileID() {
        let card = poweredCard()
        #expect(exchange(card, "00b09c0000") == cardAccess.hexString + "9000")
        #expect(exchange(card, "00b09c0000000000") == "6700")  // malformed: Lc 0 in short form
        #expect(exchange(card, "00b09c00000000") == cardAccess.hexString + "9000")  // extended Le 0000
        // Explicit Ne larger than the file: data + 6282.
        #expect(exchange(card, "00b09c00000400") == cardAccess.hexString + "6282")
        #expect(exchange(card, "00b09c0004") == Array(cardAccess.prefix(4)).hexString + "9000")
        #expect(exchange(card, "00b09c1000") == Array(cardAccess.dropFirst(16)).hexString + "9000")
        #expect(exchange(card, "00b09b0000") == "6a82")  // SFI 1B does not exist
        #expect(exchange(card, "00b0dc0000") == "6a86")  // bits 7-6 of P1 set
        #expect(exchange(card, "00b09c00") == "6700")  // no Le
    }

    @Test func readBinaryWithOffsetsOnCurrentFile() {
        let card = poweredCard()
        #expect(exchange(card, "00b0000000") == "6986")  // no EF selected yet
        #expect(exchange(card, "00a4020c02011c") == "9000")
        #expect(exchange(card, "00b0000010") == Array(cardAccess.prefix(16)).hexString + "9000")
        #expect(exchange(card, "00b0001000") == Array(cardAccess.dropFirst(16)).hexString + "9000")
        let end = String(format: "%04x", cardAccess.count)
        #expect(exchange(card, "00b0" + end + "00") == "6282")  // at the end: nothing left
        let beyond = String(format: "%04x", cardAccess.count + 1)
        #expect(exchange(card, "00b0" + beyond + "00") == "6b00")
        #expect(exchange(card, "00b0" + beyond + "000000") == "6b00")
    }

    @Test func longFileIsReadByShortAndExtendedLength() throws {
        let content = (0..<600).map { UInt8($0 & 0xFF) }
        let card = poweredCard(CardProfile(cardAccess: content))
        #expect(exchange(card, "00b09c0000") == Array(content.prefix(256)).hexString + "9000")
        #expect(exchange(card, "00b09c00000000") == content.hexString + "9000")
        #expect(exchange(card, "00a4020c02011c") == "9000")
        #expect(exchange(card, "00b0010000") == Array(content[256..<512]).hexString + "9000")
        #expect(exchange(card, "00b0020000") == Array(content[512...]).hexString + "9000")
    }

    @Test func clientReadFileGetsTheWholeFile() throws {
        for extended in [true, false] {
            let long = TLV(tag: 0x31, value: Array(repeating: 0xAB, count: 700)).bytes
            let channel = ShortOnlyChannel(
                SimulatedCardChannel(
                    card: SimulatedEIDCard(
                        profile: CardProfile(cardAccess: long))), extended: extended)
            #expect(try channel.readFile(shortFileID: 0x1C) == long)
        }
        let channel = SimulatedCardChannel()
        #expect(try channel.readFile(shortFileID: 0x1C) == cardAccess)
        #expect(channel.transmitCount == 1)
    }

    @Test(arguments: ["3181c6300d06", "ffffffff", "31"])
    func brokenCardAccessIsServedAsIs(hex: String) throws {
        let bytes = [UInt8](hex: hex)!
        let channel = SimulatedCardChannel(card: SimulatedEIDCard(profile: CardProfile(cardAccess: bytes)))
        // Truncated TLV: the client asks for the rest, gets 6282 without data, and keeps what came.
        #expect(try channel.readFile(shortFileID: 0x1C) == bytes)
    }

    @Test func cardSecurityNeedsPACE() {
        let card = poweredCard()
        #expect(exchange(card, "00b09d0000") == "6982")
        card.withContext { $0.session.authenticatedPassword = .pin }
        #expect(
            exchange(card, "00b09d0000") == Array(SimulatorSecurityInfos.defaultCardSecurity.prefix(256)).hexString
                + "9000")
    }

    @Test func mseSetATForEveryPasswordAndPINState() {
        let states: [(CardProfile, UInt16)] = [
            (CardProfile(), 0x9000), (CardProfile(pinRetries: 2), 0x63C2), (CardProfile(pinRetries: 1), 0x63C1),
            (CardProfile(pinRetries: 0), 0x63C0), (CardProfile(deactivated: true), 0x6283),
            (CardProfile(pinRetries: 1, deactivated: true), 0x6283),
            (CardProfile(transportPIN: true), 0x9000),
        ]
        for (profile, expected) in states {
            let card = poweredCard(profile)
            #expect(status(card, mseSetATPACE(ref: 3)) == expected)
            #expect(card.withContext { $0.session.paceTemplate?.password } == .pin)
            for ref: UInt8 in [1, 2, 4] {
                #expect(status(card, mseSetATPACE(ref: ref)) == 0x9000)
                #expect(card.withContext { $0.session.paceTemplate?.password.rawValue } == ref)
            }
        }
    }

    @Test func mseSetATRejectsBadData() {
        let card = poweredCard()
        let oid = "800a04007f00070202040202"
        func mse(_ data: String) -> UInt16 {
            status(card, "0022c1a4" + String(format: "%02x", data.count / 2) + data)
        }
        #expect(mse(oid + "830105") == 0x6A88)  // unknown password reference
        #expect(mse(oid + "830100") == 0x6A88)
        #expect(mse("800a04007f00070202040203" + "830103") == 0x6A80)  // 192-bit PACE: not offered
        #expect(mse(oid) == 0x6A80)  // no password
        #expect(mse("830103") == 0x6A80)  // no protocol
        #expect(mse(oid + "83020303") == 0x6A80)  // reference of two bytes
        #expect(mse(oid + "830103830103") == 0x6A80)  // duplicate
        #expect(mse(oid + "830103" + "9f0100") == 0x6A80)  // unknown object
        #expect(mse(oid + "83") == 0x6A80)  // truncated TLV
        #expect(mse(oid + "830103" + "7f4c03530100") == 0x6A80)  // CHAT without OID
        #expect(card.withContext { $0.session.paceTemplate } == nil)
        // No data at all (AusweisApp2's way to end a PACE channel): wrong length, as a real nPA.
        #expect(status(card, "0022c1a4") == 0x6700)
        #expect(mse(oid + "830103" + "7f4c0e060904007f00070301020253010f") == 0x9000)
        #expect(card.withContext { $0.session.paceTemplate?.chat?.count } == 17)
        #expect(mse(oid + "830102" + "84010d") == 0x9000)
        #expect(card.withContext { $0.session.paceTemplate?.domainParameterID } == [0x0D])
        #expect(status(card, "0022c1a6" + "03830103") == 0x6A86)  // other P2
        #expect(status(card, "002281a4" + "03830103") == 0x6982)  // Set AT for TA: only after PACE
    }

    @Test func errorStatusWords() {
        let card = poweredCard()
        #expect(exchange(card, "00ca000000") == "6d00")  // GET DATA: not offered
        #expect(exchange(card, "80a4020c02011c") == "6e00")  // proprietary class
        #expect(exchange(card, "01a4020c02011c") == "6e00")  // logical channel 1
        #expect(exchange(card, "0ca4020c02011c") == "6882")  // SM without secure messaging
        #expect(exchange(card, "10a4020c02011c") == "6884")  // chaining not accepted by SELECT
        for malformed in ["", "00", "00a402", "00a4020c05011c", "00a4020c02011c0000", "00b0000000000511"] {
            #expect(exchange(card, malformed) == "6700")
        }
        #expect(exchange(card, "00a4020c02011c") == "9000")  // still answering
    }

    @Test func randomBytesNeverCrashTheCard() {
        let card = poweredCard()
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let count = Int.random(in: 0...40, using: &generator)
            var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if bytes.count > 1, Bool.random() { bytes[0] = 0 }
            let response = card.respond(to: bytes)
            #expect(response.count >= 2)
        }
    }

    @Test func sessionsEndWithResetAndPowerOffButPasswordsPersist() {
        let card = poweredCard()
        #expect(status(card, mseSetATPACE(ref: 3)) == 0x9000)
        card.withContext { context in
            context.session.authenticatedPassword = .pin
            _ = context.passwords.recordAttempt(.pin, succeeded: false)
        }
        card.reset()
        #expect(card.withContext { $0.session.paceTemplate } == nil)
        #expect(card.passwords.pinRetryCounter == 2)
        #expect(status(card, mseSetATPACE(ref: 3)) == 0x63C2)
        card.powerOff()
        #expect(!card.isPoweredOn)
        #expect(card.respond(to: [0x00, 0xA4, 0x00, 0x0C]).isEmpty)
        card.powerOn()
        #expect(card.withContext { $0.session.paceTemplate } == nil)
        #expect(card.passwords.pinRetryCounter == 2)
    }

    @Test func channelReportsAPoweredOffCardAsRemoved() {
        let channel = SimulatedCardChannel()
        #expect(channel.supportsExtendedLength)
        #expect(SimulatedCardChannel.readerName == "Simulator")
        channel.card.powerOff()
        #expect(throws: CardError.cardRemoved) { try channel.transmit(CommandAPDU.selectMasterFile) }
        #expect(channel.transmitCount == 1)
    }

    @Test func resetRetryCounterNeedsTheRightPACE() {
        let card = poweredCard(CardProfile(pinRetries: 0, transportPIN: true))
        let changePIN = "002c0203063635343332" + "31"
        #expect(status(card, changePIN) == 0x6982)
        #expect(status(card, "002c0303") == 0x6982)
        card.withContext { $0.session.authenticatedPassword = .puk }
        #expect(status(card, changePIN) == 0x6982)
        #expect(status(card, "002c0303") == 0x9000)
        #expect(card.passwords.pinRetryCounter == 3)
        #expect(card.passwords.pukUsesLeft == 9)
        card.withContext { $0.session.authenticatedPassword = .pin }
        #expect(status(card, "002c02030431323334") == 0x6A80)
        #expect(status(card, changePIN) == 0x9000)
        #expect(card.passwords.pin == "654321")
        #expect(!card.passwords.transportPIN)
        #expect(status(card, "002c0103") == 0x6A86)
        #expect(status(card, "002c0202") == 0x6A86)
    }

    @Test func pukInoperativeAnswers6982() {
        let card = poweredCard(CardProfile(pinRetries: 0, pukUsesLeft: 0))
        card.withContext { $0.session.authenticatedPassword = .puk }
        #expect(status(card, "002c0303") == 0x6982)
    }

    @Test func traceShowsInstructionAndStatusWordOnly() {
        let card = poweredCard()
        let lines = LockedLines()
        card.onTrace { lines.append($0.description) }
        _ = card.respond(to: [UInt8](hex: "00a4020c02011c")!)
        _ = card.respond(to: [UInt8](hex: mseSetATPACE(ref: 3))!)
        _ = card.respond(to: [0x00])
        #expect(lines.all == ["apdu ins=A4 sw=9000", "apdu ins=22 sw=9000", "apdu ins=-- sw=6700"])
    }

    /// The CHAT of an MSE:Set AT for PACE is the one piece of data the trace shows (what a test of the
    /// rights a client asks for reads); a command carrying a PIN shows none of it.
    @Test func traceShowsTheCHATOfMSESetATForPACEAndNoOtherData() {
        let card = poweredCard()
        let lines = LockedLines()
        card.onTrace { lines.append($0.description) }
        // Authentication terminal, rights DG4, DG5, DG8 (bits 11, 12, 15) and CAN allowed (bit 4).
        let chat = "7f4c12060904007f000703010202" + "53050000009810"
        _ = card.respond(to: [UInt8](hex: "0022c1a424" + "800a04007f00070202040202" + "830103" + chat)!)
        _ = card.respond(to: [UInt8](hex: "002c020306" + "313233343536")!)
        #expect(lines.all.count == 2)
        #expect(lines.all.first == "apdu ins=22 sw=9000 chat=" + chat.uppercased())
        #expect(lines.all.last?.hasPrefix("apdu ins=2C sw=") == true && lines.all.last?.count == 19, "\(lines.all)")
    }

    @Test func concurrentUseIsSafe() async {
        let card = poweredCard()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<200 { #expect(status(card, "00b09c0004") == 0x9000) }
                }
            }
        }
    }
}

/// Collects strings from any thread.
final class LockedLines: @unchecked Sendable {
    private let lock = Lock()
    private var lines: [String] = []
    func append(_ s: String) { lock.withLock { lines.append(s) } }
    var all: [String] { lock.withLock { lines } }
}

/// A channel that claims no extended length when asked, to drive the short-read path.
final class ShortOnlyChannel: CardChannel {
    let inner: SimulatedCardChannel
    let extended: Bool
    init(_ inner: SimulatedCardChannel, extended: Bool) {
        self.inner = inner
        self.extended = extended
    }
    var supportsExtendedLength: Bool { extended }
    func transmit(_ command: CommandAPDU) throws -> ResponseAPDU { try inner.transmit(command) }
}
