import EAC
import Foundation
import Online
import OrderedJSON
import SmartCard
import Testing

@testable import RemoteIFD

/// What PersoSim's remote IFD server, the phone side nobody here wrote, actually sent (recorded
/// on loopback: Tests/Fixtures/IFD/persosim, its README tells how), read by eid's own parsers:
/// the announcement parser, IFDIncomingMessage and IFDStatus, and a whole session replayed through
/// IFDSession and RemoteCardConnection, its PACE answers decoded as the PIN-pad workflow decodes
/// them. Each recorded file is read by one test here (`everyRecordingIsReplayed`).
@Suite struct PersoSimFixtureTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/IFD/persosim")

    static let context = "PersoSimContextHandle"
    static let slot = "PersoSim Slot 1"
    static let name = "PersoSim-Headless"
    /// The SlotHandle PersoSim gave in the recorded one-session run.
    static let slotHandle = "d0ZKBYc5i6"

    /// The recordings and the test that reads each.
    static let replayed: [String: String] = [
        "announcement.json": "announcementsAreRead",
        "pairing-wrong-code.json": "announcementsAreRead",
        "pairing.json": "pairingConnectionIsRead",
        "IFDEstablishContextResponse.json": "aRecordedSessionIsReplayed",
        "IFDStatus.json": "aRecordedSessionIsReplayed",
        "IFDConnectResponse.json": "aRecordedSessionIsReplayed",
        "IFDTransmitResponse.json": "aRecordedSessionIsReplayed",
        "IFDEstablishPACEChannelResponse.json": "aRecordedSessionIsReplayed",
        "IFDModifyPINResponse.json": "aRecordedSessionIsReplayed",
        "IFDDisconnectResponse.json": "aRecordedSessionIsReplayed",
        "IFDEstablishPACEChannelResponse-after-modify.json": "paceAnswersAreDecoded",
        "IFDEstablishPACEChannelResponse-pinpad.json": "paceAnswersAreDecoded",
        "IFDEstablishPACEChannelResponse-wrong-pin.json": "paceAnswersAreDecoded",
        "IFDStatus-basic.json": "theBasicReaderHasNoPINPad",
        "IFDEstablishContextResponse-unsupported-protocol.json": "anUnsupportedProtocolIsAnError",
        "IFDError.json": "persoSimsErrorsAreRead",
        "normal-unpaired-certificate.json": "recordingsWithoutMessagesSayWhatHappened",
        "second-client.json": "recordingsWithoutMessagesSayWhatHappened",
    ]

    static func fixture(_ file: String) throws -> JSONValue {
        let data = try Data(contentsOf: directory.appendingPathComponent(file))
        return try JSONValue(parsing: Array(data))
    }

    /// A recorded message as the text frame eid would have received.
    static func message(_ value: JSONValue?) throws -> IFDIncomingMessage {
        let value = try #require(value, "the recording lacks the message")
        return try IFDIncomingMessage(text: value.text)
    }

    static func text(_ value: JSONValue?) throws -> String { try #require(value, "the recording lacks a message").text }

    static func array(_ value: JSONValue?) -> [JSONValue]? {
        if case .array(let items)? = value { return items }
        return nil
    }

    @Test func everyRecordingIsReplayed() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path)
            .filter { $0.hasSuffix(".json") }
        #expect(files.count == 18)
        #expect(Set(files) == Set(Self.replayed.keys))
        for file in files {
            // Each names the PersoSim commits it was recorded from.
            let source = try Self.fixture(file)["source"]
            #expect(source?["commits"]?["PersoSim/de.persosim.remoteifd"]?.string?.count == 40, "\(file)")
        }
    }

    @Test func announcementsAreRead() throws {
        let recorded = try Self.fixture("announcement.json")
        let hash = try #require(recorded["server_cert_sha256"]?.string)
        for (key, pairing) in [("pairing", true), ("normal", false)] {
            let datagram = Array(try Self.text(recorded[key]).utf8)
            let announcement = try #require(IFDAnnouncement(datagram: datagram, sender: "127.0.0.1"))
            let port = try #require(recorded[key]?["port"].flatMap { if case .integer(let n) = $0 { n } else { nil } })
            #expect(announcement.name == Self.name)
            #expect(announcement.ifdID == hash)
            #expect(announcement.pairing == pairing)
            #expect(announcement.port == port)
            // No addresses field: the sender's address it is.
            #expect(announcement.addresses == ["wss://127.0.0.1:\(port)"])
            #expect(announcement.supportedAPIs == ["IFDInterface_WebSocket_v0", "IFDInterface_WebSocket_v2"])
            #expect(announcement.isSupported)
        }
        // After a wrong pairing code PersoSim announces its normal mode.
        let next = try Self.text(Self.fixture("pairing-wrong-code.json")["next_announcement"])
        let announcement = try #require(IFDAnnouncement(datagram: Array(next.utf8), sender: "127.0.0.1"))
        #expect(!announcement.pairing)
        #expect(announcement.ifdID == hash)
    }

    @Test func pairingConnectionIsRead() throws {
        let recorded = try Self.fixture("pairing.json")
        #expect(recorded["tls"]?["cipher"]?.string == "RSA-PSK-AES256-CBC-SHA")
        let answer = try Self.message(recorded["response"])
        #expect(answer.type == .establishContextResponse)
        #expect(answer.contextHandle == Self.context)
        #expect(answer.result == .ok)
        #expect(try answer.string("IFDName") == Self.name)
        // PersoSim pushes the status unasked, about a second after the connection opened.
        let pushed = try IFDStatus(Self.message(recorded["next_message_within_2s"]))
        #expect(
            pushed
                == IFDStatus(
                    slotName: Self.slot, hasPINPad: true, maxAPDULength: 32767, connectedReader: true,
                    cardAvailable: true))
    }

    /// A phone that answers eid's requests with what PersoSim answered to the same requests.
    static func recordedPhone() throws -> FakePhone {
        let context = try fixture("IFDEstablishContextResponse.json")["response"]
        let status = try fixture("IFDStatus.json")["response"]
        let connect = try fixture("IFDConnectResponse.json")["response"]
        let pace = try fixture("IFDEstablishPACEChannelResponse.json")["response"]
        let modify = try fixture("IFDModifyPINResponse.json")["response"]
        let disconnect = try fixture("IFDDisconnectResponse.json")
        var transmits: [String: String] = [:]
        for exchange in try #require(array(fixture("IFDTransmitResponse.json")["exchanges"])) {
            let apdu = try #require(exchange["request"]?["InputAPDU"]?.string)
            transmits[apdu.uppercased()] = try text(exchange["response"])
        }
        #expect(transmits.count == 2)
        let pushedAfterDisconnect = try #require(array(disconnect["pushed"])).map(\.text)
        #expect(pushedAfterDisconnect.count == 1)
        let frames: [String: [String]] = [
            "IFDEstablishContext": [try text(context)], "IFDGetStatus": [try text(status)],
            "IFDConnect": [try text(connect)], "IFDEstablishPACEChannel": [try text(pace)],
            "IFDModifyPIN": [try text(modify)],
            "IFDDisconnect": [try text(disconnect["response"])] + pushedAfterDisconnect,
        ]
        return FakePhone { request in
            let msg = request["msg"]?.string ?? ""
            if msg == "IFDTransmit" {
                return transmits[request["InputAPDU"]?.string?.uppercased() ?? ""].map { [$0] } ?? []
            }
            return frames[msg] ?? []
        }
    }

    /// IFDEstablishContext, IFDGetStatus, IFDConnect, two IFDTransmit (SELECT and READ BINARY of
    /// EF.CardAccess), IFDEstablishPACEChannel with the PIN, IFDModifyPIN and IFDDisconnect, each
    /// answered as PersoSim answered it: eid takes every answer, and the PACE output is the card's
    /// EF.CardAccess, the same bytes that READ BINARY returned.
    @Test func aRecordedSessionIsReplayed() throws {
        let phone = try Self.recordedPhone()
        let session = try IFDSession.establish(channel: phone, phoneName: "PersoSim", udName: "eid test")
        #expect(session.ifdName == Self.name)
        #expect(session.contextHandle == Self.context)
        try session.refreshStatus()
        let status = try #require(session.slots.first?.status)
        #expect(session.slots.count == 1)
        #expect(status.slotName == Self.slot)
        #expect(status.hasPINPad && status.cardAvailable && status.connectedReader)
        #expect(status.maxAPDULength == 32767 && status.supportsExtendedLength)

        let card = try RemoteCardConnection.connect(session: session, slotName: Self.slot, exclusive: true)
        #expect(card.slotHandle == Self.slotHandle)
        #expect(card.supportsExtendedLength)
        let select = try card.transmit(CommandAPDU(bytes: [0x00, 0xA4, 0x02, 0x0C, 0x02, 0x01, 0x1C]))
        #expect(select.statusWord == .success)
        let read = try card.transmit(CommandAPDU(bytes: [0x00, 0xB0, 0x00, 0x00, 0x00]))
        #expect(read.statusWord == .success)
        #expect(read.data.count == 256)

        let answer = try card.establishPACEChannel(
            inputData: [0x03, 0x00, 0x06] + Array("123456".utf8) + [0, 0], timeout: 1)
        let output = try EstablishPACEChannelOutput(response: answer)
        #expect(output.result == .noError)
        #expect(output.result.meaning == .established)
        #expect(output.mseSetATStatus == .success)
        #expect(output.efCardAccess.count == 276)
        #expect(Array(output.efCardAccess.prefix(256)) == read.data)
        #expect(try SecurityInfos(efCardAccess: output.efCardAccess).paceInfos.isEmpty == false)
        // Empty CAR fields (PersoSim sends them empty, AusweisApp leaves them off) are no CAR.
        #expect(output.currentCAR == nil && output.previousCAR == nil)
        #expect(output.idICC.count == 20)

        #expect(try card.modifyPIN(inputData: [0x3C, 0x3C, 0x82, 0x00], timeout: 1) == [0x90, 0x00])
        card.disconnect(resetCard: false)
        // The status PersoSim pushed after IFDDisconnect is taken: the card is still there.
        #expect(session.slots.first?.status.cardAvailable == true)

        // eid sent what the recording's requests were: same messages, same handles.
        let sent = phone.sentMessages
        #expect(
            sent.map { $0["msg"]?.string ?? "" } == [
                "IFDEstablishContext", "IFDGetStatus", "IFDConnect", "IFDTransmit", "IFDTransmit",
                "IFDEstablishPACEChannel", "IFDModifyPIN", "IFDDisconnect",
            ])
        #expect(sent.dropFirst().allSatisfy { $0["ContextHandle"]?.string == Self.context })
        #expect(sent.filter { $0["SlotHandle"] != nil }.allSatisfy { $0["SlotHandle"]?.string == Self.slotHandle })
        #expect(sent.first?["Protocol"]?.string == IFDProtocol.v2)
    }

    /// PersoSim with its card taken off pushes IFDStatus with CardAvailable false (the recorded
    /// status with that one field changed) and still answers IFDTransmit, ResultMajor ok, with
    /// 6F78: the answer is not the card's, the card was removed.
    @Test func anAnswerAfterTheCardLeftIsARemovedCard() throws {
        let phone = try Self.recordedPhone()
        let session = try IFDSession.establish(channel: phone, phoneName: "PersoSim", udName: "eid test")
        try session.refreshStatus()
        let card = try RemoteCardConnection.connect(session: session, slotName: Self.slot, exclusive: true)
        #expect(try card.transmit(CommandAPDU(bytes: [0x00, 0xA4, 0x02, 0x0C, 0x02, 0x01, 0x1C])).isSuccess)

        guard case .object(var members) = try #require(Self.fixture("IFDStatus.json")["response"]) else {
            throw RemoteIFDError.malformedMessage("IFDStatus.json's response is not an object")
        }
        let index = try #require(members.firstIndex { $0.0 == "CardAvailable" })
        members[index].1 = .bool(false)
        let removed = JSONValue.object(members).text
        let answered = try Self.text(
            Self.array(Self.fixture("IFDTransmitResponse.json")["exchanges"])?.first?["response"]
        )
        .replacingOccurrences(of: #""ResponseAPDU": "9000""#, with: #""ResponseAPDU": "6F78""#)
        .replacingOccurrences(of: #""ResponseAPDU":"9000""#, with: #""ResponseAPDU":"6F78""#)
        #expect(answered.contains("6F78"))
        phone.push(removed)
        let recorded = phone.answer
        phone.answer = { request in request["msg"]?.string == "IFDTransmit" ? [answered] : recorded(request) }
        #expect(throws: CardError.cardRemoved) {
            try card.transmit(CommandAPDU(bytes: [0x00, 0xA4, 0x02, 0x0C, 0x02, 0x01, 0x1C]))
        }
        #expect(session.slots.first?.status.cardAvailable == false)
        // PACE on the phone answered as when the card was there: still not this card's answer.
        #expect(throws: CardError.cardRemoved) {
            try card.establishPACEChannel(inputData: [0x03, 0x00, 0x00, 0x00, 0x00], timeout: 1)
        }
        #expect(throws: CardError.cardRemoved) { try card.modifyPIN(inputData: [0x3C, 0x3C, 0x82, 0x00], timeout: 1) }
    }

    @Test func paceAnswersAreDecoded() throws {
        func output(_ value: JSONValue?) throws -> EstablishPACEChannelOutput {
            let message = try Self.message(value)
            #expect(message.type == .establishPACEChannelResponse)
            #expect(message.result == .ok)
            let code = try message.hex("ResultCode")
            #expect(code.count == 4)
            // ResultCode is little endian, as AusweisApp sends it.
            let raw = code.reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            return try EstablishPACEChannelOutput(
                result: EstablishPACEChannelResultCode(rawValue: raw), outputData: message.hex("OutputData"))
        }
        // The wrong PIN on a fresh card: the card's 63C2 in General Authenticate step 4, 2 tries left.
        let wrong = try output(Self.fixture("IFDEstablishPACEChannelResponse-wrong-pin.json")["response"])
        #expect(wrong.result.rawValue == 0xF006_63C2)
        #expect(wrong.result.meaning == .cardStatus(step: 6, StatusWord(rawValue: 0x63C2)))
        #expect(StatusWord(rawValue: 0x63C2).retryCounter == 2)
        #expect(wrong.mseSetATStatus == .success)
        #expect(wrong.idICC.isEmpty)

        // The PIN typed on PersoSim's PIN pad, and then a cancelled entry (an empty line).
        let pinPad = try Self.fixture("IFDEstablishPACEChannelResponse-pinpad.json")
        #expect(pinPad["request"]?["InputData"]?.string == "0300000000")
        #expect(try output(pinPad["response"]).result.meaning == .established)
        let cancelled = try output(pinPad["cancelled"])
        #expect(cancelled.result == .cancelledByUser)
        #expect(cancelled.mseSetATStatus == nil && cancelled.efCardAccess.isEmpty)

        // The new PIN after IFDModifyPIN, on a second connection.
        let after = try output(Self.fixture("IFDEstablishPACEChannelResponse-after-modify.json")["response"])
        #expect(after.result.meaning == .established)
        #expect(after.efCardAccess.count == 276)
    }

    @Test func theBasicReaderHasNoPINPad() throws {
        let recorded = try Self.fixture("IFDStatus-basic.json")
        let status = try IFDStatus(Self.message(recorded["response"]))
        #expect(!status.hasPINPad)
        #expect(status.cardAvailable && status.connectedReader)
        #expect(status.slotName == Self.slot)
        // IFDEstablishPACEChannel to the basic reader got no answer: eid must not send it there.
        #expect(recorded["establish_pace_channel"]?["response"]?.string?.hasPrefix("no answer") == true)
    }

    /// PersoSim answers an unknown protocol version without "msg": not a message eid takes, so
    /// IFDEstablishContext fails with that reason and the connection is closed.
    @Test func anUnsupportedProtocolIsAnError() throws {
        let response = try Self.fixture("IFDEstablishContextResponse-unsupported-protocol.json")["response"]
        #expect(response?["ResultMinor"]?.string?.hasSuffix("common#unsupportedProtocol") == true)
        #expect(throws: RemoteIFDError.malformedMessage("msg is missing or not a string")) {
            try Self.message(response)
        }
        let frame = try Self.text(response)
        let phone = FakePhone { _ in [frame] }
        #expect(throws: RemoteIFDError.malformedMessage("msg is missing or not a string")) {
            try IFDSession.establish(channel: phone, phoneName: "PersoSim", udName: "eid test")
        }
        #expect(phone.isClosed)
    }

    /// PersoSim's answer to an unknown message is named IFDERROR (AusweisApp: IFDError): eid does
    /// not take it for an IFD message. Its answer to wrong handles is an ordinary success.
    @Test func persoSimsErrorsAreRead() throws {
        let exchanges = try #require(Self.array(Self.fixture("IFDError.json")["exchanges"]))
        #expect(exchanges.count == 6)
        let answered = exchanges.compactMap { exchange -> JSONValue? in
            if case .object = exchange["response"] { return exchange["response"] } else { return nil }
        }
        #expect(answered.count == 2)
        #expect(answered.first?["msg"]?.string == "IFDERROR")
        #expect(throws: RemoteIFDError.malformedMessage("msg is not an IFD message type")) {
            try Self.message(answered.first)
        }
        let transmit = try Self.message(answered.last)
        #expect(transmit.type == .transmitResponse)
        #expect(transmit.result == .ok)
        #expect(try transmit.hex("ResponseAPDU") == [0x90, 0x00])
        #expect(try transmit.string("SlotHandle") == Self.slotHandle)
        // The others (a missing field, bad hex, not JSON, an unknown slot) got no answer at all.
        #expect(exchanges.filter { $0["response"]?.string?.hasPrefix("no answer") == true }.count == 4)
    }

    /// Two recordings hold no IFD message, only a TLS outcome: an unpaired certificate refused, and
    /// a second client's handshake never answered. IFDTransportTests hold eid to both against
    /// servers that behave so (a refused client certificate; a handshake never answered).
    @Test func recordingsWithoutMessagesSayWhatHappened() throws {
        let unpaired = try Self.fixture("normal-unpaired-certificate.json")
        #expect(unpaired["client_result"]?.string?.contains("ALERT_INTERNAL_ERROR") == true)
        #expect(unpaired["response"] == nil)
        let second = try Self.fixture("second-client.json")
        #expect(second["client_result"]?.string?.contains("TLS handshake unanswered") == true)
        #expect(second["response"] == nil)
    }
}
