import EAC
import SmartCard

/// RESET RETRY COUNTER (2C) for the PIN (P2 = 03):
/// - P1 02, data = the new PIN as ASCII digits: change PIN; needs PACE with the PIN (or the
///   transport PIN) in this session, else 6982. A new PIN that is not 6 digits → 6A80.
/// - P1 03, no data: unblock; needs PACE with the PUK in this session, else 6982. Once the PUK
///   has been used 10 times → 6982 as well (inoperative: the PUK no longer gives the right).
/// Other P1/P2 → 6A86. After Terminal Authentication in this session both need "PIN management"
/// in the effective CHAT as well (`EACAccess.permitsPINManagement`), else 6982: an eID server's
/// APDUs (PAOS Transmit) cannot change the PIN without the right. These commands arrive under
/// secure messaging (PACE's, or CA's after EAC); the dispatcher has removed it before this
/// handler runs. A plain command ends secure messaging and with it `authenticatedPassword`, so
/// sent unprotected they get 6982.
struct ResetRetryCounterHandler: CardCommandHandler {
    let instruction: UInt8 = 0x2C

    func handle(_ command: CommandAPDU, context: inout CardContext) throws -> ResponseAPDU {
        guard command.p2 == PACEPasswordType.pin.rawValue else { throw CardError.statusWord(.incorrectParameters) }
        guard command.p1 == 0x02 || command.p1 == 0x03 else { throw CardError.statusWord(.incorrectParameters) }
        guard context.session.eacAccess.permitsPINManagement else {
            throw CardError.statusWord(.securityStatusNotSatisfied)
        }
        let outcome: PasswordOutcome
        switch command.p1 {
        case 0x02:
            guard context.session.authenticatedPassword == .pin else {
                throw CardError.statusWord(.securityStatusNotSatisfied)
            }
            guard !command.data.isEmpty else { throw CardError.statusWord(.wrongLength) }
            outcome = context.passwords.changePIN(to: String(decoding: command.data, as: UTF8.self))
        case 0x03:
            guard command.data.isEmpty else { throw CardError.statusWord(.wrongLength) }
            guard context.session.authenticatedPassword == .puk else {
                throw CardError.statusWord(.securityStatusNotSatisfied)
            }
            outcome = context.passwords.unblockPIN()
        default:
            throw CardError.statusWord(.incorrectParameters)
        }
        return ResponseAPDU(statusWord: outcome.statusWord)
    }
}
