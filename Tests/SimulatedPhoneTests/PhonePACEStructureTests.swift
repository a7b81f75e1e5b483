import EAC
import SmartCard
import Testing

@testable import SimulatedPhone

/// The PC/SC Part 10 AMD1 structures on the phone's side, against a layout published by another
/// implementation (AusweisApp's test_EstablishPaceChannelOutput: the OutputData of a successful PACE).
@Suite struct PhonePACEStructureTests {
    static let cardAccess =
        "3181c1300d060804007f00070202020201023012060a04007f000702020302020201020201413012060a04007f0007020204020202"
        + "010202010d301c060904007f000702020302300c060704007f0007010202010d020141302a060804007f0007020206161e68747470"
        + "3a2f2f6273692e62756e642e64652f6369662f6e70612e786d6c303e060804007f000702020831323012060a04007f000702020302"
        + "02020102020145301c060904007f000702020302300c060704007f0007010202010d020145"
    static let idICC = "24e41d62b8c848226b86fcc6c7657577dca47ad2bf21573617bae84807f85c6b"

    @Test func outputDataMatchesThePublishedLayout() throws {
        let output = PhonePACEOutput(
            resultCode: 0, setATStatus: .success, cardAccess: try #require([UInt8](hex: Self.cardAccess)),
            currentCAR: Array("DECVCAeID00103".utf8), idICC: try #require([UInt8](hex: Self.idICC)))
        let expected =
            "9000" + "c400" + Self.cardAccess + "0e" + "4445435643416549443030313033" + "00" + "2000" + Self.idICC
        #expect(output.outputData.hexString == expected)
        #expect(output.outputData.count == 0xFA)
        #expect(output.resultCodeBytes.hexString == "00000000")
    }

    @Test func aWrongPINIsStepFourWithTheStatusWordLittleEndian() {
        let code = PhonePACEOutput.cardError(step: 0x06, StatusWord(rawValue: 0x63C2))
        #expect(code == 0xF006_63C2)
        #expect(PhonePACEOutput(resultCode: code).resultCodeBytes.hexString == "c26306f0")
        #expect(PhonePACEOutput(resultCode: code).outputData.hexString == "00000000")
    }

    @Test func emptyTrailingFieldsAreLeftOut() {
        let bare = PhonePACEOutput(resultCode: 0, setATStatus: StatusWord(rawValue: 0x63C2), cardAccess: [0x31, 0x00])
        #expect(bare.outputData.hexString == "63c202003100")
    }

    @Test func inputIsReadWithItsLengths() throws {
        let chat: [UInt8] = [0x7F, 0x4C, 0x03, 0x06, 0x01, 0x00]
        let description: [UInt8] = Array(repeating: 0xAB, count: 300)
        let bytes = [0x03, UInt8(chat.count)] + chat + [0x00, 0x2C, 0x01] + description
        let input = try #require(PhonePACEInput(bytes: bytes))
        #expect(input.passwordType == .pin)
        #expect(input.chat == chat)
        #expect(input.certificateDescription == description)
        #expect(input.bytes == bytes)
        #expect(PhonePACEInput(bytes: [0x02, 0, 0, 0, 0])?.passwordType == .can)
        #expect(PhonePACEInput(bytes: [0x02, 0, 0, 0, 0])?.chat == nil)
    }

    @Test func brokenInputIsRefused() {
        #expect(PhonePACEInput(bytes: []) == nil)
        #expect(PhonePACEInput(bytes: [0x03, 0, 0, 0]) == nil)  // too short
        #expect(PhonePACEInput(bytes: [0x09, 0, 0, 0, 0]) == nil)  // no such PasswordID
        #expect(PhonePACEInput(bytes: [0x03, 5, 0, 0, 0]) == nil)  // CHAT longer than the rest
        #expect(PhonePACEInput(bytes: [0x03, 0, 0, 0, 0, 0xFF]) == nil)  // a byte left over
    }
}
