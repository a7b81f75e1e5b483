import OrderedJSON
import SmartCard
import Testing

@testable import SimulatedPhone

/// The phone's answers to each IFD message, as AusweisApp's phone gives them (TR-03112-6, v2).
@Suite struct PhoneSessionTests {
    static let readCardAccess: [UInt8] = [0x00, 0xB0, 0x9C, 0x00, 0x00]

    @Test func establishContextGivesAHandleAndTheName() throws {
        let client = PhoneClient()
        let reply = try #require(client.establish())
        #expect(reply["msg"] == .string("IFDEstablishContextResponse"))
        #expect(reply.isOK)
        #expect(reply["IFDName"] == .string("Test phone"))
        #expect(client.contextHandle.hasPrefix("{") && client.contextHandle.count == 38)
        #expect(client.session.clientName == "test client")
    }

    @Test func aSecondContextAndAnotherProtocolAreRefused() throws {
        let other = PhoneClient()
        let refused = other.send(
            "IFDEstablishContext", [("Protocol", .string("IFDInterface_WebSocket_v0"))], context: false)
        #expect(refused.first?.minor == IFDResult.Minor.unknownError.rawValue)
        let client = PhoneClient()
        _ = client.establish()
        let again = client.send(
            "IFDEstablishContext", [("Protocol", .string("IFDInterface_WebSocket_v2"))], context: false)
        #expect(again.first?.minor == IFDResult.Minor.unknownError.rawValue)
    }

    @Test func unknownMessagesGetIFDErrorAndAWrongContextNothing() {
        let client = PhoneClient()
        _ = client.establish()
        let unknown = client.send("IFDFrobnicate")
        #expect(unknown.first?["msg"] == .string("IFDError"))
        #expect(unknown.first?.minor == IFDResult.Minor.unknownAPIFunction.rawValue)
        #expect(client.sendRaw("not json").first?["msg"] == .string("IFDError"))
        let saved = client.contextHandle
        client.contextHandle = "{00000000-0000-4000-8000-000000000000}"
        #expect(client.send("IFDGetStatus", [("SlotName", .string(""))]).isEmpty)
        client.contextHandle = saved
        #expect(client.send("IFDGetStatus", [("SlotName", .string(""))]).count == 1)
    }

    @Test func statusReportsTheSlotCardAndMode() throws {
        for pinPad in [false, true] {
            let client = PhoneClient(pinPad: pinPad)
            _ = client.establish()
            let status = try #require(client.send("IFDGetStatus", [("SlotName", .string("Test phone"))]).first)
            #expect(status["msg"] == .string("IFDStatus"))
            #expect(status["SlotName"] == .string("Test phone"))
            #expect(status["PINPad"] == .bool(pinPad))
            #expect(status["CardAvailable"] == .bool(true))
            #expect(status["ConnectedReader"] == .bool(true))
            #expect(status["EFATR"] == .null)
        }
        let client = PhoneClient()
        _ = client.establish()
        let unknown = client.send("IFDGetStatus", [("SlotName", .string("Other"))]).first
        #expect(unknown?.minor == IFDResult.Minor.unknownSlot.rawValue)
    }

    @Test func connectTransmitDisconnect() throws {
        let client = PhoneClient()
        _ = client.establish()
        let slot = try #require(client.connect())
        let shared = client.send("IFDConnect", [("SlotName", .string("Test phone")), ("exclusive", .bool(true))])
        #expect(shared.first?.minor == IFDResult.Minor.sharingViolation.rawValue)
        let reply = try #require(client.transmit(slot, Self.readCardAccess))
        #expect(reply["msg"] == .string("IFDTransmitResponse"))
        #expect(reply.isOK)
        let response = try #require(reply.hex("ResponseAPDU"))
        #expect(response.suffix(2) == [0x90, 0x00])
        #expect(response.first == 0x31)  // EF.CardAccess: a SET of SecurityInfos
        let wrong = client.transmit("{nope}", Self.readCardAccess)
        #expect(wrong?.minor == IFDResult.Minor.invalidSlotHandle.rawValue)
        #expect(wrong?["ResponseAPDU"] == .string(""))
        let disconnect = client.send("IFDDisconnect", [("SlotHandle", .string(slot))]).first
        #expect(disconnect?["msg"] == .string("IFDDisconnectResponse"))
        #expect(disconnect?.isOK == true)
        #expect(client.transmit(slot, Self.readCardAccess)?.minor == IFDResult.Minor.invalidSlotHandle.rawValue)
        let again = client.send("IFDDisconnect", [("SlotHandle", .string(slot))]).first
        #expect(again?.minor == IFDResult.Minor.invalidSlotHandle.rawValue)
    }

    @Test func basicModeRefusesPACEModifyPINAndDestroy() throws {
        let client = PhoneClient(pinPad: false)
        _ = client.establish()
        let slot = try #require(client.connect())
        let pace = try #require(client.establishPACE(slot))
        #expect(pace["msg"] == .string("IFDEstablishPACEChannelResponse"))
        #expect(pace.minor == IFDResult.Minor.unknownError.rawValue)
        let modify = client.send("IFDModifyPIN", [("SlotHandle", .string(slot)), ("InputData", .string("00"))]).first
        #expect(modify?.minor == IFDResult.Minor.unknownError.rawValue)
        let destroy = client.send("IFDDestroyPACEChannel", [("SlotHandle", .string(slot))]).first
        #expect(destroy?["msg"] == .string("IFDDestroyPACEChannelResponse"))
        #expect(destroy?.minor == IFDResult.Minor.unknownError.rawValue)
        #expect(client.establishPACE("{nope}")?.minor == IFDResult.Minor.invalidSlotHandle.rawValue)
    }

    @Test func theCardLeavingIsPushedAndEndsTheSlot() throws {
        let client = PhoneClient(faults: PhoneFaults(removeCardAfterTransmits: 2))
        _ = client.establish()
        let slot = try #require(client.connect())
        #expect(client.transmit(slot, Self.readCardAccess)?.isOK == true)
        let second = client.send(
            "IFDTransmit", [("SlotHandle", .string(slot)), ("InputAPDU", .string(Self.readCardAccess.hexString))])
        #expect(second.count == 2)
        #expect(second.first?.isOK == true)
        #expect(second.last?["msg"] == .string("IFDStatus"))
        #expect(second.last?["CardAvailable"] == .bool(false))
        #expect(client.transmit(slot, Self.readCardAccess)?.minor == IFDResult.Minor.invalidSlotHandle.rawValue)
        let connect = client.send("IFDConnect", [("SlotName", .string("Test phone")), ("exclusive", .bool(true))])
        #expect(connect.first?.minor == IFDResult.Minor.unknownError.rawValue)
        client.reader.insertCard()
        // The push (then the IFDError for the empty message that collected it).
        #expect(client.sendRaw("").first?["CardAvailable"] == .bool(true))
        #expect(client.connect() != nil)
    }

    @Test func vanishAndStallComeAtTheirTransmit() throws {
        let client = PhoneClient(faults: PhoneFaults(vanishAfterTransmits: 1))
        _ = client.establish()
        let slot = try #require(client.connect())
        let message = JSONValue.object([
            ("msg", .string("IFDTransmit")), ("ContextHandle", .string(client.contextHandle)),
            ("SlotHandle", .string(slot)), ("InputAPDU", .string(Self.readCardAccess.hexString)),
        ]).text
        #expect(client.session.receive(Array(message.utf8)) == .none)
        #expect(client.session.receive(Array(message.utf8)) == .vanish)
        let stalling = PhoneClient(faults: PhoneFaults(stallAfterTransmits: 0))
        _ = stalling.establish()
        let other = try #require(stalling.connect())
        let text = JSONValue.object([
            ("msg", .string("IFDTransmit")), ("ContextHandle", .string(stalling.contextHandle)),
            ("SlotHandle", .string(other)), ("InputAPDU", .string(Self.readCardAccess.hexString)),
        ]).text
        #expect(stalling.session.receive(Array(text.utf8)) == .stall)
    }
}
