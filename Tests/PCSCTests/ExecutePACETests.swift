import Testing

@testable import PCSC

/// FEATURE_EXECUTE_PACE's framing (PC/SC Part 10 AMD1, 2.6), against AusweisApp's bytes for the
/// same calls (test_EstablishPaceChannel.cpp, DestroyPaceChannelBuilder).
@Suite struct ExecutePACETests {
    @Test func establishFramesTheInputData() throws {
        #expect(
            try ExecutePACE.controlInput(.establishPACEChannel, inputData: [0x03, 0, 0, 0, 0])
                == [0x02, 0x05, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00])
        let long = [UInt8](repeating: 0xAB, count: 0x2C2)
        #expect(try ExecutePACE.controlInput(.establishPACEChannel, inputData: long).prefix(3) == [0x02, 0xC2, 0x02])
        #expect(throws: (any Error).self) {
            try ExecutePACE.controlInput(.establishPACEChannel, inputData: [UInt8](repeating: 0, count: 0x10000))
        }
    }

    @Test func destroyHasNoInputData() throws {
        #expect(try ExecutePACE.controlInput(.destroyPACEChannel) == [0x03, 0x00, 0x00])
    }

    @Test func resultReadsTheFrame() {
        #expect(ExecutePACE.result(of: [0xC2, 0x63, 0x06, 0xF0, 0x00, 0x00]) == 0xF006_63C2)
        #expect(ExecutePACE.result(of: [0, 0, 0, 0, 0x02, 0x00, 0x90, 0x00]) == 0)
        #expect(ExecutePACE.result(of: [0, 0, 0, 0, 0x03, 0x00, 0x90, 0x00]) == nil, "the length disagrees")
        #expect(ExecutePACE.result(of: [0, 0, 0, 0, 0]) == nil)
    }

    @Test func aReaderWithoutExecutePACEIsNoPINPad() {
        #expect(!ReaderFeatures(controlCodes: [ReaderFeatures.modifyPINDirect: 0x4233_0007]).hasPACEKeypad)
        #expect(ReaderFeatures(featureResponse: [0x20, 4, 0x42, 0x33, 0x00, 0x20]).controlCodes[0x20] == 0x4233_0020)
    }
}
