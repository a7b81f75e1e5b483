import SmartCard

/// ChipAuthenticationInfo (TR-03110-3, A.1.1.2): a Chip Authentication protocol and version.
public struct ChipAuthenticationInfo: Equatable, Sendable {
    public var `protocol`: OID
    public var version: Int
    public var keyID: Int?

    public init(protocol: OID, version: Int = 2, keyID: Int? = nil) {
        self.protocol = `protocol`
        self.version = version
        self.keyID = keyID
    }
}
