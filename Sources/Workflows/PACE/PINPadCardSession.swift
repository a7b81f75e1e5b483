import EAC
import SmartCard

/// The PIN operations of one card session on a reader that runs PACE itself (PC/SC Part 10 AMD1;
/// a phone in PIN-pad mode): EstablishPACEChannel with the InputData eid encodes and the
/// OutputData it reads, ModifyPIN for the new PIN, and RESET RETRY COUNTER (unblock) as a plain
/// command, which the reader protects in its PACE channel. The authentication's EAC steps run over
/// the same connection with IDicc and the CARs the reader told (`PACEChannelCard`).
public final class PINPadCardSession: PINPadCard {
    let connection: PINPadConnection
    let paceInfo: PACEInfo
    /// The OutputData of the last successful EstablishPACEChannel; nil after a failed one.
    private(set) var established: EstablishPACEChannelOutput?

    public init(connection: PINPadConnection, paceInfo: PACEInfo) {
        self.connection = connection
        self.paceInfo = paceInfo
    }

    public func establishPACEOnPINPad(
        _ password: PACEPasswordType, chat: CHAT?, certificateDescription: [UInt8]?, timeout: Double
    ) throws -> PACEOutcome {
        established = nil
        let input = EstablishPACEChannelInput(
            passwordType: password, chat: chat?.encoded ?? [], certificateDescription: certificateDescription ?? [])
        let answer = try Self.entry {
            try connection.establishPACEChannel(inputData: try input.encoded(), timeout: timeout)
        }
        let output: EstablishPACEChannelOutput
        do { output = try EstablishPACEChannelOutput(response: answer) } catch {
            throw CardError.malformedResponse("EstablishPACEChannel: \(error)")
        }
        switch output.result.meaning {
        case .established:
            established = output
            return .established
        case .cardStatus(_, let sw) where PACEPasswordRefusal(statusWord: sw) != nil:
            return .wrongPassword(sw)
        case .cardStatus(_, let sw):
            throw CardError.statusWord(sw)
        case .noCard:
            throw CardError.cardRemoved
        case .cancelledByUser:
            throw PINPadEntryError.cancelled
        case .inputTimeout:
            throw PINPadEntryError.timedOut
        case .readerFailed:
            throw CardError.transportFailed("the reader's PACE failed with result \(output.result)")
        }
    }

    public func changePINOnPINPad(timeout: Double) throws -> StatusWord {
        guard established != nil else { throw CardError.statusWord(.securityStatusNotSatisfied) }
        let answer = try Self.entry {
            try connection.modifyPIN(inputData: ModifyPINInput(timeout: timeout).encoded(), timeout: timeout)
        }
        guard answer.count == 2 else {
            throw CardError.malformedResponse("ModifyPIN answered \(answer.count) byte(s), not a status word")
        }
        // PC/SC Part 10, 2.5.3: the reader's own answers to an entry that did not end.
        switch StatusWord(sw1: answer[0], sw2: answer[1]).rawValue {
        case 0x6400: throw PINPadEntryError.timedOut
        case 0x6401: throw PINPadEntryError.cancelled
        default: return StatusWord(sw1: answer[0], sw2: answer[1])
        }
    }

    /// Runs an entry on the reader: a reader that does not answer within the time the user had
    /// (a phone's readerTimeoutError, a bounded SCardControl) is the user typing nothing in time.
    static func entry(_ body: () throws -> [UInt8]) throws -> [UInt8] {
        do { return try body() } catch CardError.timeout { throw PINPadEntryError.timedOut }
    }

    /// The reader takes the password on its PIN pad, never from eid.
    public func establishPACE(_ password: PACEPasswordType, secret: Secret, chat: CHAT?) throws -> PACEOutcome {
        throw CardError.transportFailed("the reader takes the password on its PIN pad")
    }

    public func pinRetryCounter() throws -> Int? {
        // Asked after a failed PACE: the reader has no channel open, the command goes plain.
        established = nil
        return try EIDCardState.pinOutcome(connection, paceInfo: paceInfo).pinRetryCounter
    }

    /// The reader takes the new PIN on its PIN pad, never from eid.
    public func changePIN(to newPIN: Secret) throws -> StatusWord {
        throw CardError.transportFailed("the reader takes the new PIN on its PIN pad")
    }

    /// eid sends nothing more through the reader's PACE channel (after Chip Authentication).
    func forgetChannel() { established = nil }

    public func unblockPIN() throws -> StatusWord {
        guard established != nil else { throw CardError.statusWord(.securityStatusNotSatisfied) }
        let sw = try connection.transmit(try .resetRetryCounter(unblock: .pin)).statusWord
        // The PUK's channel is done: the PIN's PACE starts afresh (AusweisApp's StateDestroyPace).
        established = nil
        try? connection.destroyPACEChannel()
        return sw
    }
}
