import Online
import Testing

@testable import RemoteIFD

@Suite struct IFDIncomingMessageTests {
    @Test func statusPushIsRead() throws {
        let message = try IFDIncomingMessage(text: PhoneFrames.status(pinPad: true, card: false))
        let status = try IFDStatus(message)
        #expect(message.contextHandle == PhoneFrames.context)
        #expect(message.result == nil)
        #expect(
            status
                == IFDStatus(
                    slotName: "NFC", hasPINPad: true, maxAPDULength: 65546, connectedReader: true, cardAvailable: false)
        )
        #expect(status.supportsExtendedLength)
    }

    @Test func v0PINCapabilitiesAndZeroMaxAPDULength() throws {
        let text =
            #"{"msg":"IFDStatus","ContextHandle":"c","SlotName":"NFC","PINCapabilities":{"PACE":true,"eID":false,"eSign":false,"Destroy":false},"MaxAPDULength":0,"ConnectedReader":true,"CardAvailable":true}"#
        let status = try IFDStatus(IFDIncomingMessage(text: text))
        #expect(status.hasPINPad)
        #expect(status.maxAPDULength == -1)
        let short = try IFDStatus(IFDIncomingMessage(text: PhoneFrames.status(maxAPDU: 261)))
        #expect(!short.supportsExtendedLength)
    }

    @Test func errorResponseKeepsItsMinor() throws {
        let message = try IFDIncomingMessage(
            text: PhoneFrames.response("IFDTransmitResponse", minor: "ifdl/terminal#noCard"))
        #expect(message.result?.isOK == false)
        #expect(message.result?.minor == .noCard)
        #expect(message.result?.saysCardGone == true)
        #expect(message.result?.summary == "ifdl/terminal#noCard")
    }

    @Test func unknownMinorIsKeptAsURI() throws {
        let message = try IFDIncomingMessage(
            text: PhoneFrames.response("IFDConnectResponse", minor: "al/common#madeUp"))
        #expect(message.result?.minor == nil)
        #expect(message.result?.summary == "al/common#madeUp")
    }

    @Test func establishContextResponseAndErrorMayLackContextHandle() throws {
        let text =
            #"{"msg":"IFDError","ResultMajor":"http://www.bsi.bund.de/ecard/api/1.1/resultmajor#error","ResultMinor":"http://www.bsi.bund.de/ecard/api/1.1/resultminor/al/common#unknownAPIFunction"}"#
        let message = try IFDIncomingMessage(text: text)
        #expect(message.type == .error)
        #expect(message.contextHandle == nil)
        #expect(message.result?.minor == .unknownAPIFunction)
    }

    @Test(arguments: [
        "", "[]", "not json", #"{"msg":"IFDStatus"}"#, #"{"msg":"IFDSomething","ContextHandle":"c"}"#,
        #"{"msg":42,"ContextHandle":"c"}"#,
        #"{"msg":"IFDConnectResponse","ContextHandle":"c","ResultMajor":"nonsense"}"#,
        #"{"msg":"IFDConnectResponse","ContextHandle":"c","ResultMajor":"http://www.bsi.bund.de/ecard/api/1.1/resultmajor#error"}"#,
        #"{"msg":"IFDTransmitResponse","ContextHandle":"c"}"#,
        #"{"msg":"IFDStatus","ContextHandle":"c","msg":"IFDStatus"}"#,
        String(repeating: "[", count: 100),
    ])
    func malformedMessagesAreTypedErrors(text: String) {
        #expect(throws: RemoteIFDError.self) { try IFDIncomingMessage(text: text) }
    }

    @Test(arguments: [
        #"{"msg":"IFDStatus","ContextHandle":"c","SlotName":"NFC","MaxAPDULength":1,"ConnectedReader":true,"CardAvailable":true}"#,
        #"{"msg":"IFDStatus","ContextHandle":"c","SlotName":"NFC","PINPad":"yes","MaxAPDULength":1,"ConnectedReader":true,"CardAvailable":true}"#,
        #"{"msg":"IFDStatus","ContextHandle":"c","SlotName":"NFC","PINPad":true,"MaxAPDULength":1.5,"ConnectedReader":true,"CardAvailable":true}"#,
        #"{"msg":"IFDStatus","ContextHandle":"c","SlotName":"NFC","PINPad":true,"MaxAPDULength":1,"ConnectedReader":true}"#,
        #"{"msg":"IFDStatus","ContextHandle":"c","PINPad":true,"MaxAPDULength":1,"ConnectedReader":true,"CardAvailable":true}"#,
    ])
    func malformedStatusIsATypedError(text: String) throws {
        let message = try IFDIncomingMessage(text: text)
        #expect(throws: RemoteIFDError.self) { try IFDStatus(message) }
    }

    @Test func hexFieldsAcceptEitherCase() throws {
        let message = try IFDIncomingMessage(
            text: PhoneFrames.response("IFDTransmitResponse", [("ResponseAPDU", .string("6A82aBcD9000"))]))
        #expect(try message.hex("ResponseAPDU") == [0x6A, 0x82, 0xAB, 0xCD, 0x90, 0x00])
        let bad = try IFDIncomingMessage(
            text: PhoneFrames.response("IFDTransmitResponse", [("ResponseAPDU", .string("9g00"))]))
        #expect(throws: RemoteIFDError.malformedMessage("ResponseAPDU is not hex")) { try bad.hex("ResponseAPDU") }
    }
}
