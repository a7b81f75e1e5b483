import SmartCard

/// ChipAuthenticationDomainParameterInfo (TR-03110-3, A.1.1.2).
public struct ChipAuthenticationDomainParameterInfo: Equatable, Sendable {
    public var `protocol`: OID
    public var domainParameter: AlgorithmIdentifier
    public var keyID: Int?

    public init(protocol: OID, domainParameter: AlgorithmIdentifier, keyID: Int? = nil) {
        self.protocol = `protocol`
        self.domainParameter = domainParameter
        self.keyID = keyID
    }
}
