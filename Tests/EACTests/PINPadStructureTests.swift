import EAC
import SmartCard
import TestVectors
import Testing

/// The PC/SC Part 10 AMD1 structures against bytes laid out by the specification and checked
/// against AusweisApp's unit tests (Fixtures/pinpad_structures.json names the sources).
@Suite("PIN-pad structures (PC/SC Part 10 AMD1 EstablishPACEChannel, Part 10 PIN_MODIFY)")
struct PINPadStructureTests {
    let v: [String: String]
    init() throws { v = try Fixture.hexValues("pinpad_structures") }

    func bytes(_ key: String) throws -> [UInt8] { try hex(v[key] ?? "") }

    /// The InputData inside SCardControl's frame (function, length, data).
    func inputData(_ key: String) throws -> [UInt8] { Array(try bytes(key).dropFirst(3)) }

    @Test func inputWithThePINAloneIsFiveBytes() throws {
        let input = EstablishPACEChannelInput(passwordType: .pin)
        #expect(try input.encoded() == (try bytes("inputPINOnly")))
        #expect(try input.encoded() == (try inputData("controlPINOnly")))
    }

    @Test func inputWithCHATAndDescriptionEncodesAndDecodes() throws {
        let input = EstablishPACEChannelInput(
            passwordType: .pin, chat: try bytes("chat"), certificateDescription: try bytes("certificateDescription"))
        #expect(try input.encoded() == (try inputData("controlPINWithCHATAndDescription")))
        #expect(try EstablishPACEChannelInput(decoding: input.encoded()) == input)
        let chatOnly = EstablishPACEChannelInput(passwordType: .pin, chat: try bytes("chat"))
        #expect(try chatOnly.encoded() == (try inputData("controlPINWithCHAT")))
    }

    @Test func aTransmittedPasswordIsNotedNotKept() throws {
        let decoded = try EstablishPACEChannelInput(decoding: try inputData("controlPINWithPassword"))
        #expect(decoded.carriedPassword && decoded.passwordType == .pin)
        #expect(try decoded.encoded() == (try bytes("inputPINOnly")), "eid encodes no password")
    }

    @Test func malformedInputIsRefused() throws {
        let good = try bytes("inputPINOnly")
        #expect(throws: PINPadStructureError.unknownPasswordID(9)) {
            try EstablishPACEChannelInput(decoding: [9] + good.dropFirst())
        }
        #expect(throws: PINPadStructureError.trailingBytes(count: 1)) {
            try EstablishPACEChannelInput(decoding: good + [0])
        }
        #expect(throws: PINPadStructureError.truncated(field: "CHAT")) {
            try EstablishPACEChannelInput(decoding: [3, 5, 0x7F])
        }
        #expect(throws: PINPadStructureError.fieldTooLong(field: "CHAT", length: 256)) {
            try EstablishPACEChannelInput(passwordType: .pin, chat: [UInt8](repeating: 0, count: 256)).encoded()
        }
    }

    @Test func successfulOutputGivesWhatTerminalAuthenticationNeeds() throws {
        let output = try EstablishPACEChannelOutput(response: try bytes("responseSuccess"))
        #expect(output.result == .noError && output.result.meaning == .established)
        #expect(output.mseSetATStatus == .success)
        #expect(output.efCardAccess == (try bytes("efCardAccess")))
        #expect(output.currentCAR == v["currentCAR"] && output.previousCAR == nil)
        #expect(output.idICC == (try bytes("idICC")))
        #expect(try output.response() == (try bytes("responseSuccess")), "encodes back to the same bytes")
    }

    @Test func aWrongPINTellsTheCardsStatusWordAndNothingElse() throws {
        let output = try EstablishPACEChannelOutput(response: try bytes("responseWrongPIN"))
        #expect(output.result.rawValue == 0xF006_63C2 && output.result.description == "F00663C2")
        #expect(output.result.meaning == .cardStatus(step: 6, .retriesLeft(2)))
        #expect(output.mseSetATStatus == nil && output.efCardAccess.isEmpty && output.idICC.isEmpty)
    }

    @Test func ifdFieldsDecodeApart() throws {
        let code = try bytes("ifdCommunicationAbortResultCode")
        let result = EstablishPACEChannelResultCode(
            rawValue: UInt32(code[0]) | UInt32(code[1]) << 8 | UInt32(code[2]) << 16 | UInt32(code[3]) << 24)
        #expect(result == .communicationAbort && result.meaning == .readerFailed)
        let output = try EstablishPACEChannelOutput(result: result, outputData: try bytes("ifdDefaultOutputData"))
        #expect(output.mseSetATStatus == StatusWord(rawValue: 0) && output.efCardAccess == [0x31, 0x00])
    }

    @Test(
        arguments: [
            (0x0000_0000, EstablishPACEChannelResultCode.Meaning.established),
            (0xF006_63C1, .cardStatus(step: 6, .retriesLeft(1))),
            (0xF006_6300, .cardStatus(step: 6, .authenticationFailed)),
            (0xF002_6983, .cardStatus(step: 2, .authenticationMethodBlocked)),
            (0xF003_6984, .cardStatus(step: 3, .referenceDataNotUsable)),
            (0xF010_0002, .noCard), (0xF020_0001, .cancelledByUser), (0xF020_0002, .inputTimeout),
            (0xD000_0002, .readerFailed), (0xE000_0003, .readerFailed), (0xF800_6A80, .readerFailed),
            (0xF010_0001, .readerFailed),
        ] as [(UInt32, EstablishPACEChannelResultCode.Meaning)])
    func resultCodes(raw: UInt32, meaning: EstablishPACEChannelResultCode.Meaning) {
        #expect(EstablishPACEChannelResultCode(rawValue: raw).meaning == meaning)
    }

    @Test func malformedOutputIsRefused() throws {
        let good = try bytes("responseSuccess")
        #expect(throws: PINPadStructureError.trailingBytes(count: 1)) {
            try EstablishPACEChannelOutput(response: good + [0])
        }
        #expect(throws: PINPadStructureError.truncated(field: "OutputData")) {
            try EstablishPACEChannelOutput(response: Array(good.dropLast()))
        }
        #expect(throws: PINPadStructureError.truncated(field: "Result")) {
            try EstablishPACEChannelOutput(response: [0])
        }
        // A success must tell MSE:Set AT and EF.CardAccess.
        #expect(throws: PINPadStructureError.truncated(field: "Statusbytes MSE:Set AT")) {
            try EstablishPACEChannelOutput(response: [0, 0, 0, 0, 0, 0])
        }
        // The length of IDicc says more than there is.
        #expect(throws: PINPadStructureError.truncated(field: "IDicc")) {
            try EstablishPACEChannelOutput(result: .noError, outputData: [0x90, 0, 0, 0, 0, 0, 0x05, 0])
        }
        #expect(throws: PINPadStructureError.carNotPrintable(field: "CARcurr")) {
            try EstablishPACEChannelOutput(result: .noError, outputData: [0x90, 0, 0, 0, 1, 0x01])
        }
    }

    @Test func modifyPINIsTheStructureAusweisAppSends() throws {
        let input = ModifyPINInput(timeoutSeconds: 77)
        #expect(input.encoded() == (try bytes("modifyPIN77")))
        #expect(try ModifyPINInput(decoding: input.encoded()) == input)
        #expect(ModifyPINInput(timeout: 600).timeoutSeconds == 255 && ModifyPINInput(timeout: 0.2).timeoutSeconds == 1)
        #expect(throws: PINPadStructureError.self) { try ModifyPINInput(decoding: Array(input.encoded().dropLast())) }
    }
}
