import EAC

/// What Terminal and Chip Authentication established in this card session, which the eID
/// application's access rules read: the terminal's effective rights (PACE's CHAT ∩ the
/// certificate chain's, set by a successful EXTERNAL AUTHENTICATE), and whether TA and CA
/// succeeded. A new PACE or a failed EXTERNAL AUTHENTICATE resets it to no access.
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
