import Testing

@testable import RemoteIFD

@Suite struct IFDRequestTests {
    @Test func establishContextHasNoContextHandle() {
        #expect(
            IFDRequest.establishContext(udName: "laptop").text(contextHandle: "x")
                == #"{"msg":"IFDEstablishContext","Protocol":"IFDInterface_WebSocket_v2","UDName":"laptop"}"#)
    }

    @Test func getStatusAndConnect() {
        #expect(
            IFDRequest.getStatus(slotName: "").text(contextHandle: "c")
                == #"{"msg":"IFDGetStatus","ContextHandle":"c","SlotName":""}"#)
        #expect(
            IFDRequest.connect(slotName: "NFC", exclusive: true).text(contextHandle: "c")
                == #"{"msg":"IFDConnect","ContextHandle":"c","SlotName":"NFC","exclusive":true}"#)
    }

    @Test func slotHandleMessages() {
        #expect(
            IFDRequest.disconnect(slotHandle: "s").text(contextHandle: "c")
                == #"{"msg":"IFDDisconnect","ContextHandle":"c","SlotHandle":"s"}"#)
        #expect(
            IFDRequest.destroyPACEChannel(slotHandle: "s").text(contextHandle: "c")
                == #"{"msg":"IFDDestroyPACEChannel","ContextHandle":"c","SlotHandle":"s"}"#)
    }

    @Test func transmitIsLowerCaseHexWithOptionalDisplayText() {
        #expect(
            IFDRequest.transmit(slotHandle: "s", apdu: [0x00, 0xA4, 0x0C, 0xFF], displayText: nil)
                .text(contextHandle: "c")
                == #"{"msg":"IFDTransmit","ContextHandle":"c","SlotHandle":"s","InputAPDU":"00a40cff"}"#)
        #expect(
            IFDRequest.transmit(slotHandle: "s", apdu: [0x90], displayText: "Reading")
                .text(contextHandle: "c")
                == #"{"msg":"IFDTransmit","ContextHandle":"c","SlotHandle":"s","InputAPDU":"90","DisplayText":"Reading"}"#
        )
    }

    @Test func paceAndModifyPIN() {
        #expect(
            IFDRequest.establishPACEChannel(slotHandle: "s", inputData: [0x03, 0xAB], expectedPINLength: 0)
                .text(contextHandle: "c")
                == #"{"msg":"IFDEstablishPACEChannel","ContextHandle":"c","SlotHandle":"s","InputData":"03ab"}"#)
        #expect(
            IFDRequest.establishPACEChannel(slotHandle: "s", inputData: [0x03], expectedPINLength: 6)
                .text(contextHandle: "c")
                == #"{"msg":"IFDEstablishPACEChannel","ContextHandle":"c","SlotHandle":"s","InputData":"03","ExpectedPINLength":6}"#
        )
        #expect(
            IFDRequest.modifyPIN(slotHandle: "s", inputData: [0x1E]).text(contextHandle: "c")
                == #"{"msg":"IFDModifyPIN","ContextHandle":"c","SlotHandle":"s","InputData":"1e"}"#)
    }

    @Test func responseTypes() {
        #expect(IFDRequest.transmit(slotHandle: "", apdu: [], displayText: nil).responseType == .transmitResponse)
        #expect(IFDRequest.getStatus(slotName: "").responseType == nil)
        #expect(IFDMessageType.error.isResponse && IFDMessageType.modifyPINResponse.isResponse)
        #expect(!IFDMessageType.status.isResponse)
    }
}
