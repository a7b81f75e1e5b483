import OrderedJSON
import SmartCard
import Testing

@testable import RemoteIFD

@Suite struct RemoteCardConnectionPINPadTests {
    /// The provider too: it closes its phones when it goes.
    static func connected(_ extra: @escaping (JSONValueRequest) -> [String]?) throws -> (
        PINPadConnection, FakePhone, RemoteIFDReaderProvider
    ) {
        let standard = PhoneFrames.standard(pinPad: true)
        let phone = FakePhone { request in extra(JSONValueRequest(request)) ?? standard(request) }
        let (provider, _) = RemoteIFDReaderProviderTests.provider([phone])
        _ = try provider.readers()
        let connection = try #require(try provider.connect(reader: "Pixel", exclusive: true) as? PINPadConnection)
        return (connection, phone, provider)
    }

    @Test func establishPACEChannelReturnsTheControlOutputLayout() throws {
        let (connection, phone, provider) = try Self.connected { request in
            guard request.msg == "IFDEstablishPACEChannel" else { return nil }
            return [
                PhoneFrames.response(
                    "IFDEstablishPACEChannelResponse",
                    [
                        ("SlotHandle", .string("slot-7")), ("ResultCode", .string("00000000")),
                        ("OutputData", .string("9000000102")),
                    ])
            ]
        }
        defer { withExtendedLifetime(provider) {} }
        let output = try connection.establishPACEChannel(inputData: [0x03, 0x00, 0x00, 0x00], timeout: 30)
        #expect(output == [0, 0, 0, 0, 0x05, 0x00, 0x90, 0x00, 0x00, 0x01, 0x02])
        let sent = try #require(phone.sentMessages.first { $0["msg"]?.string == "IFDEstablishPACEChannel" })
        #expect(sent["InputData"]?.string == "03000000")
        #expect(sent["SlotHandle"]?.string == "slot-7")
        #expect(sent["ExpectedPINLength"] == nil)
    }

    @Test func paceRefusedOutsidePINPadModeIsAnError() throws {
        let (connection, _, provider) = try Self.connected { request in
            guard request.msg == "IFDEstablishPACEChannel" else { return nil }
            return [PhoneFrames.response("IFDEstablishPACEChannelResponse", minor: "al/common#unknownError")]
        }
        defer { withExtendedLifetime(provider) {} }
        #expect(throws: CardError.self) { try connection.establishPACEChannel(inputData: [0x03], timeout: 30) }
    }

    @Test func paceTimeoutOnThePhoneIsACardTimeout() throws {
        let (connection, _, provider) = try Self.connected { request in
            guard request.msg == "IFDEstablishPACEChannel" else { return nil }
            return [PhoneFrames.response("IFDEstablishPACEChannelResponse", minor: "ifdl/common#timeoutError")]
        }
        defer { withExtendedLifetime(provider) {} }
        #expect(throws: CardError.timeout) { try connection.establishPACEChannel(inputData: [0x03], timeout: 30) }
    }

    @Test func modifyPINReturnsTheStatusWordAlsoForMismatchedEntries() throws {
        let (connection, phone, provider) = try Self.connected { request in
            guard request.msg == "IFDModifyPIN" else { return nil }
            return [
                PhoneFrames.response(
                    "IFDModifyPINResponse", minor: "ifdl/IO#repeatedDataMismatch",
                    [("SlotHandle", .string("slot-7")), ("OutputData", .string("6480"))])
            ]
        }
        defer { withExtendedLifetime(provider) {} }
        #expect(try connection.modifyPIN(inputData: [0x1E, 0x00], timeout: 30) == [0x64, 0x80])
        #expect(phone.sentMessages.last?["InputData"]?.string == "1e00")
    }

    @Test func modifyPINSuccess() throws {
        let (connection, _, provider) = try Self.connected { request in
            guard request.msg == "IFDModifyPIN" else { return nil }
            return [PhoneFrames.response("IFDModifyPINResponse", [("OutputData", .string("9000"))])]
        }
        defer { withExtendedLifetime(provider) {} }
        #expect(try connection.modifyPIN(inputData: [0x1E], timeout: 30) == [0x90, 0x00])
    }

    @Test func modifyPINCancelledOnThePhoneIsAnError() throws {
        let (connection, _, provider) = try Self.connected { request in
            guard request.msg == "IFDModifyPIN" else { return nil }
            return [
                PhoneFrames.response(
                    "IFDModifyPINResponse", minor: "ifdl#cancellationByUser", [("OutputData", .string(""))])
            ]
        }
        defer { withExtendedLifetime(provider) {} }
        #expect(throws: CardError.self) { try connection.modifyPIN(inputData: [0x1E], timeout: 30) }
    }

    @Test func destroyPACEChannel() throws {
        let (connection, phone, provider) = try Self.connected { request in
            guard request.msg == "IFDDestroyPACEChannel" else { return nil }
            return [PhoneFrames.response("IFDDestroyPACEChannelResponse", [("SlotHandle", .string("slot-7"))])]
        }
        defer { withExtendedLifetime(provider) {} }
        try connection.destroyPACEChannel()
        #expect(phone.sentMessages.last?["msg"]?.string == "IFDDestroyPACEChannel")
    }

    @Test func thePINPadWaitIsBoundedByTheCallersTimeout() throws {
        let (connection, _, provider) = try Self.connected { request in
            request.msg == "IFDEstablishPACEChannel" ? [] : nil
        }
        defer { withExtendedLifetime(provider) {} }
        // Timing is the behaviour: the wait is the phone's response time plus the caller's timeout, then it ends.
        let start = ContinuousClock.now
        #expect(throws: CardError.cardRemoved) { try connection.establishPACEChannel(inputData: [0x03], timeout: 0.3) }
        let elapsed = ContinuousClock.now - start
        #expect(elapsed >= .seconds(0.3 + RemoteIFDReaderProviderTests.quick.response), "\(elapsed)")
        #expect(elapsed < .seconds(30), "\(elapsed)")
    }
}

/// The "msg" of a request, for the handlers above.
struct JSONValueRequest {
    let msg: String?
    init(_ value: JSONValue) { msg = value["msg"]?.string }
}
