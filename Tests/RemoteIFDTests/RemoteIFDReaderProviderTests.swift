import SmartCard
import Testing

@testable import RemoteIFD

#if canImport(Glibc)
import Glibc
#endif

/// Opens fake phones: each `open` takes the next phone from the list (none left: unreachable).
final class FakeOpener: IFDChannelOpener, @unchecked Sendable {
    struct Refused: Error, CustomStringConvertible {
        var description: String { "TLS handshake failed: decrypt error" }
    }

    let phones: Locked<[FakePhone]>
    let opened = Locked<[String]>([])
    let certificate: [UInt8]

    init(_ phones: [FakePhone], certificate: [UInt8] = Array("phone certificate".utf8)) {
        self.phones = Locked(phones)
        self.certificate = certificate
    }

    func openPairing(address: String, code: Secret, timeout: Double) throws -> (
        channel: any IFDMessageChannel, peerCertificate: [UInt8]
    ) {
        guard code.withBytes({ $0 == Array("1234".utf8) }) else { throw Refused() }
        return (try open(address: address, certificateSHA256: [], timeout: timeout), certificate)
    }

    func open(address: String, certificateSHA256: [UInt8], timeout: Double) throws -> any IFDMessageChannel {
        opened.withLock { $0.append(address) }
        return try phones.withLock { phones in
            guard !phones.isEmpty else {
                throw RemoteIFDError.unreachable(address: address, "cannot connect to \(address): connection refused")
            }
            return phones.removeFirst()
        }
    }
}

@Suite struct RemoteIFDReaderProviderTests {
    static let quick = IFDTimeouts(open: 1, response: 0.5, moreStatus: 0.05, pollSlice: 0.05)

    static func device(_ name: String = "Pixel", address: String = "wss://192.0.2.7:24728") -> PairedDevice {
        try! PairedDevice(name: name, certificate: Array(name.utf8), address: address)
    }

    static func provider(_ phones: [FakePhone], retry: Double = 10) -> (RemoteIFDReaderProvider, FakeOpener) {
        let opener = FakeOpener(phones)
        let provider = RemoteIFDReaderProvider(
            devices: [device()], opener: opener, udName: "laptop", timeouts: quick, retryInterval: retry)
        return (provider, opener)
    }

    @Test func aPhoneSlotIsAReader() throws {
        let phone = FakePhone(answer: PhoneFrames.standard(pinPad: true))
        let (provider, _) = Self.provider([phone])
        #expect(
            try provider.readers() == [ReaderSnapshot(name: "Pixel", hasPINPad: true, cardPresent: true, cardEvents: 1)]
        )
        let sent = phone.sentMessages.map { $0["msg"]?.string }
        #expect(sent == ["IFDEstablishContext", "IFDGetStatus"])
        #expect(phone.sentMessages[0]["UDName"]?.string == "laptop")
        #expect(phone.sentMessages[1]["ContextHandle"]?.string == PhoneFrames.context)
    }

    @Test func transmitGoesAsIFDTransmitWithTheSlotHandle() throws {
        let phone = FakePhone(answer: PhoneFrames.standard())
        let (provider, _) = Self.provider([phone])
        _ = try provider.readers()
        let card = try provider.connect(reader: "Pixel", exclusive: true)
        let response = try card.transmit(CommandAPDU(cla: 0, ins: 0xA4, p1: 2, p2: 0x0C, data: [0x01, 0x1C]))
        #expect(response.statusWord == .success)
        card.disconnect()
        let transmit = phone.sentMessages.first { $0["msg"]?.string == "IFDTransmit" }
        #expect(transmit?["SlotHandle"]?.string == "slot-7")
        #expect(transmit?["InputAPDU"]?.string == "00a4020c02011c")
        #expect(phone.sentMessages.last?["msg"]?.string == "IFDDisconnect")
    }

    @Test func statusPushWakesWaitForChange() throws {
        let phone = FakePhone(answer: PhoneFrames.standard(card: false))
        let (provider, _) = Self.provider([phone])
        #expect(try provider.readers().first?.cardPresent == false)
        phone.push(PhoneFrames.status(card: true))
        // The wait returns the same way at its timeout: ending long before it shows the push ended it.
        let start = Deadline(secondsFromNow: 60)
        try provider.waitForChange(timeout: 60)
        #expect(start.remaining > 30, "the push ended the wait, not its timeout")
        #expect(try provider.readers() == [ReaderSnapshot(name: "Pixel", cardPresent: true, cardEvents: 1)])
    }

    @Test func queuedPushesAreAllTakenByOneLook() throws {
        let phone = FakePhone(answer: PhoneFrames.standard(card: false))
        let (provider, _) = Self.provider([phone])
        _ = try provider.readers()
        phone.push(PhoneFrames.status(card: true))
        phone.push(PhoneFrames.status(card: false))
        phone.push(PhoneFrames.status(pinPad: true, card: true))
        #expect(
            try provider.readers() == [ReaderSnapshot(name: "Pixel", hasPINPad: true, cardPresent: true, cardEvents: 3)]
        )
    }

    @Test func cancelWaitEndsTheWait() throws {
        let phone = FakePhone(answer: PhoneFrames.standard())
        let (provider, _) = Self.provider([phone])
        _ = try provider.readers()
        // A cancel before the wait begins is forgotten, so cancel until the wait has returned.
        let returned = Locked(false)
        let start = Deadline(secondsFromNow: 60)
        _ = DetachedThread.start {
            while !returned.withLock({ $0 }) && !start.hasPassed {
                provider.cancelWait()
                usleep(10_000)
            }
        }
        try provider.waitForChange(timeout: 60)
        returned.withLock { $0 = true }
        #expect(start.remaining > 30, "the cancel ended the wait, not its timeout")
    }

    @Test func aVanishedPhoneIsARemovedReaderAndATimeBoundWait() throws {
        let phone = FakePhone(answer: PhoneFrames.standard())
        let (provider, _) = Self.provider([phone])
        #expect(try provider.readers().count == 1)
        phone.vanish()
        let start = Deadline(secondsFromNow: 60)
        try provider.waitForChange(timeout: 60)
        #expect(start.remaining > 30, "the closed channel ended the wait, not its timeout")
        #expect(try provider.readers().isEmpty)
    }

    @Test func vanishMidTransmitIsARemovedCardWithinTheTimeout() throws {
        let phone = FakePhone(answer: PhoneFrames.standard())
        let (provider, _) = Self.provider([phone])
        _ = try provider.readers()
        let card = try provider.connect(reader: "Pixel", exclusive: true)
        phone.answer = { _ in [] }  // the phone takes the Transmit and is never heard of again
        // Timing is the behaviour: the response timeout, not a hang, ends the transmit.
        let start = ContinuousClock.now
        #expect(throws: CardError.cardRemoved) { try card.transmit(encoded: [0x00, 0xB0, 0x81, 0x00, 0x00]) }
        let elapsed = ContinuousClock.now - start
        #expect(elapsed >= .seconds(Self.quick.response), "ended by the response timeout: \(elapsed)")
        #expect(elapsed < .seconds(30), "\(elapsed)")
        #expect(try provider.readers().isEmpty, "a phone that did not answer is closed")
    }

    @Test func aPhoneThatClosesMidTransmitIsARemovedCard() throws {
        let phone = FakePhone(answer: PhoneFrames.standard())
        let (provider, _) = Self.provider([phone])
        _ = try provider.readers()
        let card = try provider.connect(reader: "Pixel", exclusive: true)
        phone.answer = { _ in
            phone.vanish()
            return []
        }
        #expect(throws: CardError.cardRemoved) { try card.transmit(encoded: [0x00, 0xB0, 0x81, 0x00, 0x00]) }
    }

    @Test func cardGoneResultsAreRemovedCards() throws {
        let phone = FakePhone(answer: PhoneFrames.standard())
        let (provider, _) = Self.provider([phone])
        _ = try provider.readers()
        let card = try provider.connect(reader: "Pixel", exclusive: true)
        phone.answer = { _ in [PhoneFrames.response("IFDTransmitResponse", minor: "ifdl/common#invalidSlotHandle")] }
        #expect(throws: CardError.cardRemoved) { try card.transmit(encoded: [0x00, 0xB0, 0x81, 0x00, 0x00]) }
        // AusweisApp answers a failed transmit with al/common#unknownError after it pushed the card's removal.
        phone.answer = { _ in
            [
                PhoneFrames.status(card: false),
                PhoneFrames.response("IFDTransmitResponse", minor: "al/common#unknownError"),
            ]
        }
        #expect(throws: CardError.cardRemoved) { try card.transmit(encoded: [0x00, 0xB0, 0x81, 0x00, 0x00]) }
    }

    @Test func ifdErrorEndsTheRequest() throws {
        let phone = FakePhone(answer: PhoneFrames.standard())
        let (provider, _) = Self.provider([phone])
        _ = try provider.readers()
        let card = try provider.connect(reader: "Pixel", exclusive: true)
        phone.answer = { _ in [PhoneFrames.ifdError(minor: "al/common#unknownAPIFunction")] }
        let error = #expect(throws: CardError.self) { try card.transmit(encoded: [0x00, 0xB0, 0x81, 0x00, 0x00]) }
        #expect(error?.description.contains("IFDError (al/common#unknownAPIFunction)") == true)
    }

    @Test func foreignContextsAndStatusPushesDuringARequestAreHandled() throws {
        let phone = FakePhone(answer: PhoneFrames.standard())
        let (provider, _) = Self.provider([phone])
        _ = try provider.readers()
        let card = try provider.connect(reader: "Pixel", exclusive: true)
        phone.answer = { _ in
            [
                #"{"msg":"IFDTransmitResponse","ContextHandle":"other","SlotHandle":"slot-7","ResultMajor":"http://www.bsi.bund.de/ecard/api/1.1/resultmajor#ok","ResultMinor":null,"ResponseAPDU":"6982"}"#,
                PhoneFrames.status(pinPad: true),
                PhoneFrames.response("IFDTransmitResponse", [("ResponseAPDU", .string("6a82"))]),
            ]
        }
        #expect(try card.transmit(encoded: [0x00, 0xB0, 0x81, 0x00, 0x00]) == [0x6A, 0x82])
        #expect(try provider.readers().first?.hasPINPad == true)
    }

    @Test func aSecondClientIsRefusedWithAClearError() throws {
        let phone = FakePhone { request in
            request["msg"]?.string == "IFDEstablishContext"
                ? [PhoneFrames.establishContextResponse(minor: "al/common#unknownError")] : []
        }
        let error = #expect(throws: RemoteIFDError.self) {
            try IFDSession.establish(channel: phone, phoneName: "Pixel", udName: "laptop", timeouts: Self.quick)
        }
        #expect(error == .contextRefused(phone: "Pixel", .error(.unknownError)))
        #expect(error?.description.contains("another computer") == true)
        #expect(phone.isClosed)
        // As a provider: no readers, and no hang.
        let refusing = FakePhone(answer: phone.answer)
        let (provider, _) = Self.provider([refusing])
        #expect(try provider.readers().isEmpty)
    }

    @Test func anUnreachablePhoneIsTriedAgainOnlyAfterTheRetryInterval() throws {
        let (provider, opener) = Self.provider([], retry: 60)
        #expect(try provider.readers().isEmpty)
        #expect(try provider.readers().isEmpty)
        #expect(opener.opened.withLock { $0 } == ["wss://192.0.2.7:24728"])
    }

    @Test func aMovedPhoneIsFoundByDiscoveryAndItsAddressKept() throws {
        let phone = FakePhone(answer: PhoneFrames.standard())
        let opener = FakeOpener([phone])
        let moved = Locked<[PairedDevice]>([])
        // The stored address fails (its first open takes the phone, so give the opener a refusing slot first).
        opener.phones.withLock { $0.insert(FakePhone(answer: { _ in [] }), at: 0) }
        let provider = RemoteIFDReaderProvider(
            devices: [Self.device()], opener: opener, udName: "laptop", timeouts: Self.quick,
            locate: { _ in "wss://192.0.2.9:24728" }, moved: { device in moved.withLock { $0.append(device) } })
        #expect(try provider.readers().map(\.name) == ["Pixel"])
        #expect(opener.opened.withLock { $0 } == ["wss://192.0.2.7:24728", "wss://192.0.2.9:24728"])
        #expect(moved.withLock { $0.map(\.address) } == ["wss://192.0.2.9:24728"])
    }

    @Test func readerNames() {
        #expect(RemoteIFDReaderProvider.readerName(phone: "Pixel", slot: "NFC", slots: 1) == "Pixel")
        #expect(RemoteIFDReaderProvider.readerName(phone: "Pixel", slot: "NFC", slots: 2) == "Pixel (NFC)")
    }

    @Test func anUnknownReaderIsARemovedCard() throws {
        let (provider, _) = Self.provider([FakePhone(answer: PhoneFrames.standard())])
        #expect(throws: CardError.cardRemoved) { try provider.connect(reader: "Other", exclusive: true) }
    }
}
