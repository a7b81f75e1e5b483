import EAC

/// What Extended Access Control established in this card session: Terminal Authentication
/// and Chip Authentication (set by their handlers), the password of the PACE that TA ran in, and
/// the effective CHAT, the rights the terminal holds (PACE's CHAT ∩ the terminal's certificate
/// chain). From TA on, every command is held to them (`EACAccess+Rights`): the eID application's
/// data and verifications, and PIN management. Cleared with the session and whenever secure
/// messaging ends; a new PACE or a failed EXTERNAL AUTHENTICATE resets it.
public struct EACAccess: Equatable, Sendable {
    public var effectiveCHAT: CHAT?
    public var terminalAuthenticated: Bool
    public var chipAuthenticated: Bool
    /// The password of the PACE in which Terminal Authentication succeeded.
    public var pacePassword: PACEPasswordType?

    public init(
        effectiveCHAT: CHAT? = nil, terminalAuthenticated: Bool = false, chipAuthenticated: Bool = false,
        pacePassword: PACEPasswordType? = nil
    ) {
        self.effectiveCHAT = effectiveCHAT
        self.terminalAuthenticated = terminalAuthenticated
        self.chipAuthenticated = chipAuthenticated
        self.pacePassword = pacePassword
    }
}
