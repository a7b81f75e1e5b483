import SmartCard

/// TerminalAuthenticationInfo (TR-03110-3, A.1.1.3).
public struct TerminalAuthenticationInfo: Equatable, Sendable {
    public var `protocol`: OID
    public var version: Int
    /// The DER of the optional efCVCA FileID, kept as read.
    public var efCVCA: [UInt8]?

    public init(protocol: OID = .idTA, version: Int = 2, efCVCA: [UInt8]? = nil) {
        self.protocol = `protocol`
        self.version = version
        self.efCVCA = efCVCA
    }
}
