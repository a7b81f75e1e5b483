import SmartCard
import Testing

@testable import PCSC

@Suite struct ReaderFeaturesTests {
    @Test func parsesFeatureTLVs() {
        // VERIFY_PIN_DIRECT, MODIFY_PIN_DIRECT, EXECUTE_PACE as a PIN-pad reader announces them.
        let answer: [UInt8] = [
            0x06, 4, 0x42, 0x33, 0x00, 0x06, 0x07, 4, 0x42, 0x33, 0x00, 0x07,
            0x20, 4, 0x42, 0x33, 0x00, 0x20,
        ]
        let features = ReaderFeatures(featureResponse: answer)
        #expect(features.controlCodes[ReaderFeatures.executePACE] == 0x4233_0020)
        #expect(features.hasPACEKeypad)
    }

    @Test func basicReaderAndMalformedAnswersHaveNoKeypad() {
        #expect(!ReaderFeatures(featureResponse: [0x06, 4, 0x42, 0x33, 0x00, 0x06]).hasPACEKeypad)
        #expect(!ReaderFeatures(featureResponse: []).hasPACEKeypad)
        #expect(!ReaderFeatures(featureResponse: [0x20, 4, 0x42]).hasPACEKeypad)
        #expect(!ReaderFeatures(featureResponse: [0x06, 2, 0x42, 0x33, 0x20, 4, 0, 0, 0, 1]).hasPACEKeypad)
    }
}

@Suite struct PCSCErrorTests {
    @Test func resultCodesMapToCases() {
        #expect(PCSCError(code: 0x8010_001D, function: "f") == .serviceNotRunning)
        #expect(PCSCError(code: 0x8010_002E, function: "f") == .noReaders)
        #expect(PCSCError(code: 0x8010_0069, function: "f") == .cardRemoved)
        #expect(PCSCError(code: 0x8010_000C, function: "f") == .cardRemoved)
        #expect(PCSCError(code: 0x8010_000B, function: "f") == .sharingViolation)
        #expect(PCSCError(code: 0x8010_0017, function: "f", reader: "R") == .readerUnavailable("R"))
        #expect(PCSCError(code: 0x8010_0099, function: "SCardX") == .failed(function: "SCardX", code: 0x8010_0099))
    }

    @Test func messagesSayWhatToDo() {
        #expect(PCSCError.serviceNotRunning.description.contains("pcscd"))
        #expect(PCSCError.serviceNotRunning.description.contains("0x8010001D"))
        #expect(PCSCError.noReaders.description.contains("libccid"))
        #expect(PCSCError.sharingViolation.description.contains("another program"))
    }

    /// The workflows see PC/SC failures only as `CardError`: the cases they act on by name,
    /// the rest with PC/SC's own sentence (so what eid prints stays PC/SC's words).
    @Test func cardLayerViewOfEachFailure() {
        #expect(PCSCError.cardRemoved.cardError == .cardRemoved)
        #expect(PCSCError.sharingViolation.cardError == .cardInUse)
        #expect(
            PCSCError.serviceNotRunning.cardError == .readerServiceUnavailable(PCSCError.serviceNotRunning.description))
        #expect(PCSCError.serviceNotRunning.cardError.description == PCSCError.serviceNotRunning.description)
        let failed = PCSCError.communicationFailed(function: "SCardListReaders", code: 0x8010_0013)
        #expect(failed.cardError == .readerFailed(failed.description))
        #expect(
            PCSCError.readerUnavailable("R").cardError == .readerFailed(PCSCError.readerUnavailable("R").description))
    }
}
