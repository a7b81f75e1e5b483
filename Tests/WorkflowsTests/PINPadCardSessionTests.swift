import EAC
import SmartCard
import Testing

@testable import Workflows

/// A scripted PIN-pad reader: records what it was sent and answers as told.
final class ScriptedPINPad: PINPadConnection {
    var paceAnswer: Result<[UInt8], CardError> = .success([])
    var modifyAnswer: Result<[UInt8], CardError> = .success([0x90, 0x00])
    private(set) var inputs: [[UInt8]] = []
    private(set) var modifyInputs: [[UInt8]] = []

    var supportsExtendedLength: Bool { true }
    func transmit(_ command: CommandAPDU) throws -> ResponseAPDU { ResponseAPDU(statusWord: answer) }
    func disconnect(resetCard: Bool) {}
    private(set) var destroys = 0
    var answer: StatusWord = .success
    func destroyPACEChannel() throws { destroys += 1 }

    func establishPACEChannel(inputData: [UInt8], timeout: Double) throws -> [UInt8] {
        inputs.append(inputData)
        return try paceAnswer.get()
    }

    func modifyPIN(inputData: [UInt8], timeout: Double) throws -> [UInt8] {
        modifyInputs.append(inputData)
        return try modifyAnswer.get()
    }
}

/// `PINPadCardSession` against recorded reader answers: what it sends, how it reads the Result.
@Suite struct PINPadCardSessionTests {
    let info = PACEInfo(protocol: PACEProtocol.ecdhGenericMappingAES128.oid, version: 2, parameterID: 13)

    func session(_ answer: Result<[UInt8], CardError>) -> (PINPadCardSession, ScriptedPINPad) {
        let pad = ScriptedPINPad()
        pad.paceAnswer = answer
        return (PINPadCardSession(connection: pad, paceInfo: info), pad)
    }

    static let established: [UInt8] = [0, 0, 0, 0, 0x06, 0x00, 0x90, 0x00, 0x02, 0x00, 0x31, 0x00]

    @Test func sendsThePasswordKindAndNoPassword() throws {
        let (card, pad) = session(.success(Self.established))
        #expect(
            try card.establishPACEOnPINPad(.can, chat: nil, certificateDescription: nil, timeout: 30) == .established)
        #expect(pad.inputs == [[0x02, 0x00, 0x00, 0x00, 0x00]])
    }

    @Test func aWrongPINIsTheCardsStatusWord() throws {
        let (card, _) = session(.success([0xC2, 0x63, 0x06, 0xF0, 0x00, 0x00]))
        #expect(
            try card.establishPACEOnPINPad(.pin, chat: nil, certificateDescription: nil, timeout: 30)
                == .wrongPassword(.retriesLeft(2)))
        #expect(throws: CardError.statusWord(.securityStatusNotSatisfied)) { try card.changePINOnPINPad(timeout: 30) }
    }

    @Test func theUsersEndsOnTheReader() {
        #expect(throws: PINPadEntryError.cancelled) {
            try session(.success([0x01, 0x00, 0x20, 0xF0, 0, 0])).0.establishPACEOnPINPad(
                .pin, chat: nil, certificateDescription: nil, timeout: 30)
        }
        #expect(throws: PINPadEntryError.timedOut) {
            try session(.success([0x02, 0x00, 0x20, 0xF0, 0, 0])).0.establishPACEOnPINPad(
                .pin, chat: nil, certificateDescription: nil, timeout: 30)
        }
        #expect(throws: PINPadEntryError.timedOut) {
            try session(.failure(.timeout)).0.establishPACEOnPINPad(
                .pin, chat: nil, certificateDescription: nil, timeout: 30)
        }
        #expect(throws: CardError.cardRemoved) {
            try session(.success([0x02, 0x00, 0x10, 0xF0, 0, 0])).0.establishPACEOnPINPad(
                .pin, chat: nil, certificateDescription: nil, timeout: 30)
        }
    }

    @Test func aMalformedAnswerIsACardError() {
        #expect(throws: CardError.self) {
            try session(.success([0, 0, 0, 0, 0x09, 0x00])).0.establishPACEOnPINPad(
                .pin, chat: nil, certificateDescription: nil, timeout: 30)
        }
    }

    @Test func modifyPINSendsThePINModifyStructureAndReadsTheStatusWord() throws {
        let (card, pad) = session(.success(Self.established))
        _ = try card.establishPACEOnPINPad(.pin, chat: nil, certificateDescription: nil, timeout: 30)
        #expect(try card.changePINOnPINPad(timeout: 30) == .success)
        #expect(pad.modifyInputs == [ModifyPINInput(timeoutSeconds: 30).encoded()])
        pad.modifyAnswer = .success([0x64, 0x01])
        #expect(throws: PINPadEntryError.cancelled) { try card.changePINOnPINPad(timeout: 30) }
        pad.modifyAnswer = .success([0x64, 0x00])
        #expect(throws: PINPadEntryError.timedOut) { try card.changePINOnPINPad(timeout: 30) }
        pad.modifyAnswer = .success([0x90])
        #expect(throws: CardError.self) { try card.changePINOnPINPad(timeout: 30) }
    }

    @Test func unblockGoesPlainThroughTheReaderAndEndsThePUKsChannel() throws {
        let (card, pad) = session(.success(Self.established))
        #expect(throws: CardError.statusWord(.securityStatusNotSatisfied)) { try card.unblockPIN() }
        _ = try card.establishPACEOnPINPad(.puk, chat: nil, certificateDescription: nil, timeout: 30)
        #expect(try card.unblockPIN() == .success)
        #expect(pad.destroys == 1)
        #expect(throws: CardError.statusWord(.securityStatusNotSatisfied)) { try card.unblockPIN() }
    }
}
