import EAC
import SmartCard
import Testing

@testable import CardSimulator

/// The simulator's PIN-pad reader: PACE with what its keypad types, answered in the Part 10 AMD1
/// structures; plain commands protected while its channel is open; the first protected one ends it.
@Suite struct SimulatedPINPadChannelTests {
    func establish(_ reader: SimulatedPINPadChannel, _ type: PACEPasswordType) throws -> EstablishPACEChannelOutput {
        let input = try EstablishPACEChannelInput(passwordType: type).encoded()
        return try EstablishPACEChannelOutput(response: reader.establishPACEChannel(inputData: input, timeout: 30))
    }

    @Test func theReaderProtectsPlainCommandsAfterPACE() throws {
        let card = SimulatedEIDCard()
        let reader = SimulatedPINPadChannel(card: card, keypad: SimulatedKeypad(pin: ["123456"]))
        let output = try establish(reader, .pin)
        #expect(output.result == .noError && output.mseSetATStatus == .success)
        #expect(output.idICC.count == 32 && !output.efCardAccess.isEmpty)
        // The card runs secure messaging now: a plain READ BINARY would end it. Through the reader
        // it arrives protected, and the card's secure messaging runs on.
        #expect(card.withContext { $0.session.secureMessaging != nil })
        #expect(try reader.readFile(shortFileID: EIDFile.cardAccessShortID) == output.efCardAccess)
        #expect(card.withContext { $0.session.secureMessaging != nil }, "the command came protected")
        // A command that comes protected goes to the card as it is (the card refuses this one) and
        // ends the reader's channel: the next plain command is plain again.
        _ = try reader.transmit(encoded: [0x0C, 0xB0, 0x9C, 0x00, 0x00])
        #expect(card.withContext { $0.session.secureMessaging == nil })
        let plain = try reader.transmit(try .mseSetAT(pace: PACEProtocol.ecdhGenericMappingAES128.oid, password: .pin))
        #expect(plain.statusWord == .success, "answered plain, as to a plain command")
    }

    @Test func aWrongPINIsTheCardsStatusWordInItsStep() throws {
        let reader = SimulatedPINPadChannel(card: SimulatedEIDCard(), keypad: SimulatedKeypad(pin: ["111111"]))
        let output = try establish(reader, .pin)
        guard case .cardStatus(let step, let sw) = output.result.meaning else {
            Issue.record("no card status: \(output.result)")
            return
        }
        #expect(step >= 3 && sw == .retriesLeft(2))
    }

    @Test func noValueTypedIsACancelAndBadInputIsRefused() throws {
        let reader = SimulatedPINPadChannel(card: SimulatedEIDCard(), keypad: SimulatedKeypad())
        #expect(try establish(reader, .pin).result == .cancelledByUser)
        let answer = try EstablishPACEChannelOutput(response: reader.establishPACEChannel(inputData: [9], timeout: 30))
        #expect(answer.result.meaning == .readerFailed)
        #expect(
            try reader.modifyPIN(inputData: ModifyPINInput(timeoutSeconds: 5).encoded(), timeout: 30) == [0x69, 0x82])
    }
}
