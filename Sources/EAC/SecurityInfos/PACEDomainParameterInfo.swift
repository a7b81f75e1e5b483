import SmartCard

/// PACEDomainParameterInfo (TR-03110-3, A.1.1.1): explicit or referenced domain parameters.
public struct PACEDomainParameterInfo: Equatable, Sendable {
    public var `protocol`: OID
    public var domainParameter: AlgorithmIdentifier
    public var parameterID: Int?

    public init(protocol: OID, domainParameter: AlgorithmIdentifier, parameterID: Int? = nil) {
        self.protocol = `protocol`
        self.domainParameter = domainParameter
        self.parameterID = parameterID
    }
}
