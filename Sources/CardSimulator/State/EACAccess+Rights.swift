import EAC

/// The access rules of an eID card after Terminal Authentication (TR-03110-2, C.4.1.1 and the
/// eID application's access conditions; TR-03127's rights): the effective CHAT governs every
/// command from TA on.
extension EACAccess {
    /// Whether Terminal and Chip Authentication both succeeded in this session.
    public var isAuthenticated: Bool { terminalAuthenticated && chipAuthenticated }

    /// Whether the terminal may use the eID application's data and verifications at all: after TA
    /// and CA, and after PACE with the CAN only when the effective CHAT holds "CAN allowed"
    /// (without it the CAN only lifts the PIN's suspension).
    public var opensEIDApplication: Bool {
        isAuthenticated && (pacePassword != .can || holds(.canAllowed))
    }

    /// Whether the terminal may use `right` now: the eID application is open to it
    /// (`opensEIDApplication`) and the effective CHAT (an authentication terminal's) holds it.
    public func grants(_ right: AccessRight) -> Bool {
        opensEIDApplication && holds(right)
    }

    /// Whether PIN management (RESET RETRY COUNTER: change or unblock the PIN) is open: without
    /// TA the PACE password alone decides (the cardholder changes the PIN after PACE with it, or
    /// unblocks it with the PUK); after TA only with "PIN management" in the effective CHAT, so that
    /// an eID server that sends APDUs through the client cannot change the PIN without the right.
    public var permitsPINManagement: Bool {
        !terminalAuthenticated || holds(.pinManagement)
    }

    private func holds(_ right: AccessRight) -> Bool { effectiveCHAT?.accessRights.contains(right) == true }
}
