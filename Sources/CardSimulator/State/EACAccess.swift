import EAC

/// What Extended Access Control established in this card session: Terminal Authentication
/// and Chip Authentication (set by their handlers), and the effective CHAT, the rights the
/// terminal holds (PACE's CHAT ∩ the terminal's certificate chain). The eID application
/// grants its data and verifications from it (`EACAccess.grants`). Cleared with the session and
/// whenever secure messaging ends; a new PACE or a failed EXTERNAL AUTHENTICATE resets it.
public struct EACAccess: Equatable, Sendable {
    public var effectiveCHAT: CHAT?
    public var terminalAuthenticated: Bool
    public var chipAuthenticated: Bool

    public init(effectiveCHAT: CHAT? = nil, terminalAuthenticated: Bool = false, chipAuthenticated: Bool = false) {
        self.effectiveCHAT = effectiveCHAT
        self.terminalAuthenticated = terminalAuthenticated
        self.chipAuthenticated = chipAuthenticated
    }
}
