import EAC
import SmartCard

/// What a workflow needs of an eID card's PIN in one card session: PACE with PIN, CAN or PUK,
/// the attempts left, RESET RETRY COUNTER to change or unblock the PIN. The PACE sub-machine
/// runs on it; the authentication's card (`AuthCard`) builds on it.
public protocol PINManagementCard: AnyObject {
    /// Runs PACE with `password` (and `chat`, in an authentication). A wrong password is not an
    /// error but `.wrongPassword` with the card's status word (63Cx carries the attempts left).
    func establishPACE(_ password: PACEPasswordType, secret: Secret, chat: CHAT?) throws -> PACEOutcome
    /// The PIN attempts left as MSE:Set AT tells them (nil when the card does not say).
    func pinRetryCounter() throws -> Int?
    /// RESET RETRY COUNTER, P1 02 (change) P2 03 (PIN), the new PIN as data, inside the PACE
    /// channel established with the PIN or transport PIN. Returns the card's status word.
    func changePIN(to newPIN: Secret) throws -> StatusWord
    /// RESET RETRY COUNTER, P1 03 (reset counter) P2 03 (PIN), inside the channel established
    /// with the PUK. Returns the card's status word.
    func unblockPIN() throws -> StatusWord
}
