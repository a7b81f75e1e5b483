import EAC

extension EACAccess {
    /// Whether Terminal and Chip Authentication both succeeded in this session.
    public var isAuthenticated: Bool { terminalAuthenticated && chipAuthenticated }

    /// Whether the terminal may use `right` now: after TA and CA, and only when the effective
    /// CHAT (an authentication terminal's) holds it.
    public func grants(_ right: AccessRight) -> Bool {
        isAuthenticated && effectiveCHAT?.accessRights.contains(right) == true
    }
}
