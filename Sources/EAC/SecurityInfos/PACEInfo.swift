import SmartCard

/// PACEInfo (BSI TR-03110-3, A.1.1.1; ICAO 9303-11, 9.2.1): a PACE protocol the card supports.
public struct PACEInfo: Equatable, Sendable {
    public var `protocol`: OID
    public var version: Int
    /// The standardized domain parameter id, or a reference to a PACEDomainParameterInfo.
    public var parameterID: Int?

    public init(protocol: OID, version: Int = 2, parameterID: Int? = nil) {
        self.protocol = `protocol`
        self.version = version
        self.parameterID = parameterID
    }

    /// The protocol's parts, or nil when this module does not know the identifier.
    public var paceProtocol: PACEProtocol? { PACEProtocol(oid: `protocol`) }
}
