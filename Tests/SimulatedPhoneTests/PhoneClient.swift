import CardSimulator
import OrderedJSON
import SmartCard

@testable import SimulatedPhone

/// The test's own IFD client over a `PhoneSession` in process: plain JSON, written from TR-03112-6 and the
/// AusweisApp messages, not from eid's RemoteIFD.
final class PhoneClient: @unchecked Sendable {
    let reader: PhoneCardReader
    let session: PhoneSession
    let card: SimulatedEIDCard
    private let inbox = Locked<[JSONValue]>([])
    var contextHandle = ""

    init(
        pinPad: Bool = false, pin: String = "123456", newPIN: String? = nil, faults: PhoneFaults = PhoneFaults(),
        profile: CardProfile = CardProfile()
    ) {
        card = SimulatedEIDCard(profile: profile)
        let keypad = PhoneKeypad(
            pin: Secret(pin), can: Secret("500540"), puk: Secret("9876543210"), newPIN: newPIN.map { Secret($0) })
        reader = PhoneCardReader(name: "Test phone", card: card, pinPad: pinPad, keypad: keypad)
        let inbox = self.inbox
        session = PhoneSession(reader: reader, ifdName: "Test phone", faults: faults) { text in
            let value = try? JSONValue(parsing: Array(text.utf8))
            inbox.withLock { $0.append(value ?? .null) }
        }
    }

    /// Sends `members` (with msg first) and returns what the phone answered, in order.
    @discardableResult
    func send(_ msg: String, _ members: [(String, JSONValue)] = [], context: Bool = true) -> [JSONValue] {
        var object: [(String, JSONValue)] = [("msg", .string(msg))]
        if context { object.append(("ContextHandle", .string(contextHandle))) }
        return sendRaw(JSONValue.object(object + members).text)
    }

    @discardableResult
    func sendRaw(_ text: String) -> [JSONValue] {
        _ = session.receive(Array(text.utf8))
        return inbox.withLock { messages in
            defer { messages.removeAll() }
            return messages
        }
    }

    /// IFDEstablishContext with the v2 protocol; the context handle kept.
    func establish() -> JSONValue? {
        let reply = send(
            "IFDEstablishContext",
            [("Protocol", .string("IFDInterface_WebSocket_v2")), ("UDName", .string("test client"))], context: false
        ).first
        contextHandle = reply?["ContextHandle"]?.string ?? ""
        return reply
    }

    /// IFDConnect to the phone's slot; the slot handle.
    func connect() -> String? {
        let reply = send("IFDConnect", [("SlotName", .string("Test phone")), ("exclusive", .bool(true))]).first
        return reply?["ResultMajor"]?.string == IFDResult.majorOK ? reply?["SlotHandle"]?.string : nil
    }

    func transmit(_ slot: String, _ apdu: [UInt8]) -> JSONValue? {
        send("IFDTransmit", [("SlotHandle", .string(slot)), ("InputAPDU", .string(apdu.hexString))]).first
    }

    /// IFDEstablishPACEChannel for `type` (3: PIN) with an empty CHAT and certificate description.
    func establishPACE(_ slot: String, passwordID: UInt8 = 3) -> JSONValue? {
        let input: [UInt8] = [passwordID, 0, 0, 0, 0]
        return send(
            "IFDEstablishPACEChannel", [("SlotHandle", .string(slot)), ("InputData", .string(input.hexString))]
        ).first
    }
}

extension JSONValue {
    var minor: String? { self["ResultMinor"]?.string }
    var isOK: Bool { self["ResultMajor"]?.string == IFDResult.majorOK && self["ResultMinor"] == .null }
    func hex(_ key: String) -> [UInt8]? { self[key]?.string.flatMap { [UInt8](hex: $0) } }
}
