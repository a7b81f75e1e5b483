import CardSimulator
import EAC
import OrderedJSON
import SmartCard
import Testing

@testable import SimulatedPhone

/// PIN-pad mode: the phone runs PACE with what its user typed, keeps the secure messaging for plain
/// commands, and gives it up when a protected command arrives.
@Suite struct PhonePINPadTests {
    /// RESET RETRY COUNTER (change) with 123456: the card takes it only inside PACE's secure messaging.
    static let changePIN: [UInt8] = [0x00, 0x2C, 0x02, 0x03, 0x06] + Array("123456".utf8)

    /// The OutputData's fields: MSE:Set AT status, EF.CardAccess, current CAR, previous CAR, ID_ICC.
    static func fields(_ output: [UInt8]) -> (status: [UInt8], cardAccess: [UInt8], idICC: [UInt8])? {
        guard output.count >= 4 else { return nil }
        let length = Int(output[2]) | Int(output[3]) << 8
        guard output.count >= 4 + length else { return nil }
        let cardAccess = Array(output[4..<4 + length])
        var offset = 4 + length
        guard offset < output.count else { return (Array(output[0..<2]), cardAccess, []) }
        offset += 1 + Int(output[offset])  // current CAR
        offset += 1 + Int(output[offset])  // previous CAR
        let idLength = Int(output[offset]) | Int(output[offset + 1]) << 8
        guard offset + 2 + idLength == output.count else { return nil }
        return (Array(output[0..<2]), cardAccess, Array(output[(offset + 2)...]))
    }

    @Test func paceWithTheTypedPINSucceedsAndProtectsPlainCommands() throws {
        let client = PhoneClient(pinPad: true)
        _ = client.establish()
        let slot = try #require(client.connect())
        #expect(client.transmit(slot, Self.changePIN)?.hex("ResponseAPDU") == [0x69, 0x82])  // no PACE yet
        let reply = try #require(client.establishPACE(slot))
        #expect(reply.isOK)
        #expect(reply["ResultCode"] == .string("00000000"))
        let outputData = try #require(reply.hex("OutputData"))
        let fields = try #require(Self.fields(outputData))
        #expect(fields.status == [0x90, 0x00])
        #expect(fields.cardAccess == SimulatorSecurityInfos.cardAccess)
        #expect(fields.idICC.count == 32)
        #expect(client.reader.hasSecureMessaging)
        #expect(client.transmit(slot, Self.changePIN)?.hex("ResponseAPDU") == [0x90, 0x00])
    }

    @Test func aWrongPINGivesStepFour63C2AndTheCounterShowsNextTime() throws {
        let client = PhoneClient(pinPad: true, pin: "111111")
        _ = client.establish()
        let slot = try #require(client.connect())
        let reply = try #require(client.establishPACE(slot))
        #expect(reply.isOK)  // the message went through; its ResultCode says the PIN was wrong
        #expect(reply["ResultCode"] == .string("c26306f0"))
        #expect(!client.reader.hasSecureMessaging)
        #expect(client.card.passwords.pinRetryCounter == 2)
        let next = try #require(client.establishPACE(slot))
        #expect(next["ResultCode"] == .string("c16306f0"))
        let nextOutput = try #require(next.hex("OutputData"))
        #expect(Array(nextOutput.prefix(2)) == [0x63, 0xC2])  // MSE:Set AT status
    }

    @Test func aProtectedCommandEndsThePhonesSecureMessaging() throws {
        let client = PhoneClient(pinPad: true)
        _ = client.establish()
        let slot = try #require(client.connect())
        #expect(client.establishPACE(slot)?["ResultCode"] == .string("00000000"))
        // CLA 0C: protected by someone else (the eID server after Chip Authentication); here with no valid MAC.
        let protected: [UInt8] = [0x0C, 0xB0, 0x9C, 0x00, 0x00]
        let reply = try #require(client.transmit(slot, protected))
        #expect(!client.reader.hasSecureMessaging)
        #expect(reply.isOK)
        #expect(reply.hex("ResponseAPDU")?.suffix(2) != [0x90, 0x00])  // the card judged it, not the phone
        #expect(client.transmit(slot, Self.changePIN)?.hex("ResponseAPDU") == [0x69, 0x82])  // plain again
    }

    @Test func modifyPINTakesTheNewPINTypedOnThePhone() throws {
        let client = PhoneClient(pinPad: true, newPIN: "654321")
        _ = client.establish()
        let slot = try #require(client.connect())
        #expect(client.establishPACE(slot)?["ResultCode"] == .string("00000000"))
        let modify = try #require(
            client.send("IFDModifyPIN", [("SlotHandle", .string(slot)), ("InputData", .string("00"))]).first)
        #expect(modify["msg"] == .string("IFDModifyPINResponse"))
        #expect(modify.isOK)
        #expect(modify["OutputData"] == .string("9000"))
        #expect(client.card.passwords.pin == "654321")
        let destroy = client.send("IFDDestroyPACEChannel", [("SlotHandle", .string(slot))]).first
        #expect(destroy?.isOK == true)
        #expect(!client.reader.hasSecureMessaging)
    }

    @Test func modifyPINWithoutANewPINIsACancellation() throws {
        let client = PhoneClient(pinPad: true, newPIN: nil)
        _ = client.establish()
        let slot = try #require(client.connect())
        let modify = client.send("IFDModifyPIN", [("SlotHandle", .string(slot)), ("InputData", .string("00"))]).first
        #expect(modify?.minor == IFDResult.Minor.cancellationByUser.rawValue)
        let broken = client.send(
            "IFDEstablishPACEChannel", [("SlotHandle", .string(slot)), ("InputData", .string("0300"))]
        ).first
        #expect(broken?["ResultCode"] == .string("020000d0"))
    }
}
