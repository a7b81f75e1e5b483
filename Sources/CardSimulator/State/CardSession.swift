import EAC
import SmartCard

/// What the card remembers between power on and power off (or reset): the selected file, the
/// PACE set up by MSE:Set AT, which password PACE verified, and the secure messaging keys.
/// Cleared with every new card session; the passwords and files persist.
public struct CardSession: Sendable {
    public var selection: CardFileSystem.Selection = .masterFile
    /// Set by MSE:Set AT for PACE; consumed by General Authenticate.
    public var paceTemplate: PACEAuthenticationTemplate?
    /// The password of the last successful PACE in this session (secure messaging running);
    /// nil before PACE or after secure messaging ended.
    public var authenticatedPassword: PACEPasswordType?
    /// Whether PACE with the CAN succeeded in this session (lifts the PIN's suspension).
    public var canVerified = false
    /// The card side of secure messaging, installed by a successful PACE.
    public var secureMessaging: (any CardSecureMessaging)?
    /// Secure messaging that replaces `secureMessaging` once the response to the current
    /// command has gone out: PACE step 4 answers unprotected (or, inside secure messaging, under
    /// the old keys) and only then do its keys apply. The card installs it after every command.
    public var pendingSecureMessaging: (any CardSecureMessaging)?
    /// The CHAT of the MSE:Set AT of the PACE that succeeded in this session (nil: PACE without
    /// a CHAT, so no Terminal Authentication). Terminal Authentication intersects it with the
    /// terminal's certificate chain into `eacAccess.effectiveCHAT`.
    public var paceCHAT: CHAT?
    /// What Terminal and Chip Authentication established (set by their handlers).
    /// ID_PICC of the last successful PACE: the x-coordinate of the card's ephemeral key.
    public var idPICC: [UInt8]?
    public var eacAccess = EACAccess()
    /// The authenticated auxiliary data (67) of MSE:Set AT for TA, once EXTERNAL AUTHENTICATE
    /// has verified the signature over it; what VERIFY compares the data groups with.
    public var authenticatedAuxiliaryData: AuthenticatedAuxiliaryData?
    /// State that later protocol steps (PACE, TA, CA) keep between their commands, by name.
    public var protocolState: [String: any Sendable] = [:]

    public init() {}

    /// Ends PACE and secure messaging (a plain command or an SM error does this on the eID card),
    /// and with them what Terminal and Chip Authentication established.
    public mutating func endSecureMessaging() {
        secureMessaging = nil
        authenticatedPassword = nil
        paceCHAT = nil
        idPICC = nil
        eacAccess = EACAccess()
        authenticatedAuxiliaryData = nil
    }
}
