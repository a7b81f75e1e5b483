import EAC
import SmartCard

/// The PIN operations of a card session whose reader has a PIN pad (`PINPadConnection`): the
/// user types the password, and the new PIN, on the reader. A wrong password is, as with
/// `PINManagementCard`, the outcome `.wrongPassword` with the card's status word; the user
/// cancelling on the reader or typing nothing in time is a `PINPadEntryError`.
public protocol PINPadCard: PINManagementCard {
    /// EstablishPACEChannel with `password`, typed on the reader within `timeout` seconds, with
    /// the CHAT and certificate description the reader shows (an authentication's).
    func establishPACEOnPINPad(
        _ password: PACEPasswordType, chat: CHAT?, certificateDescription: [UInt8]?, timeout: Double
    ) throws -> PACEOutcome
    /// ModifyPIN in the PACE channel established with the PIN: the new PIN typed (twice) on the
    /// reader within `timeout` seconds. Returns the card's status word.
    func changePINOnPINPad(timeout: Double) throws -> StatusWord
}

/// The user ended the entry on the reader.
public enum PINPadEntryError: Error, Equatable, Sendable {
    /// The user pressed cancel on the reader.
    case cancelled
    /// The user typed nothing within the time given.
    case timedOut

    /// The PACE sub-machine's event for it.
    var event: PACEEvent {
        switch self {
        case .cancelled: return .cancelled
        case .timedOut: return .timedOut
        }
    }
}
