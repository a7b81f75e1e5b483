import SmartCard

/// AlgorithmIdentifier (RFC 5280): an algorithm and its parameters, kept as raw DER. Domain
/// parameters of the eID card are usually `standardizedDomainParameters` with an INTEGER id.
public struct AlgorithmIdentifier: Equatable, Sendable {
    public var algorithm: OID
    /// The DER encoding of the parameters, or nil when absent.
    public var parameters: [UInt8]?

    public init(algorithm: OID, parameters: [UInt8]? = nil) {
        self.algorithm = algorithm
        self.parameters = parameters
    }

    /// standardizedDomainParameters with the given id (TR-03110-3, A.2.1.1).
    public static func standardized(_ id: Int) -> AlgorithmIdentifier {
        AlgorithmIdentifier(algorithm: .standardizedDomainParameters, parameters: DER.encodeInteger(id).bytes)
    }

    /// The standardized domain parameter id, when the algorithm is standardizedDomainParameters.
    public var standardizedDomainParameterID: Int? {
        guard algorithm == .standardizedDomainParameters, let p = parameters, let tlv = try? DER.parse(p) else {
            return nil
        }
        return try? DER.readInteger(tlv)
    }

    init(tlv: TLV) throws {
        try DER.expect(tlv, DER.sequence)
        let c = try DER.children(tlv)
        guard let first = c.first else { throw ASN1Error.missingElement("AlgorithmIdentifier.algorithm") }
        guard c.count <= 2 else { throw ASN1Error.invalidContent("AlgorithmIdentifier with extra elements") }
        algorithm = try DER.readObjectIdentifier(first)
        parameters = c.count == 2 ? c[1].bytes : nil
    }

    var tlv: TLV {
        var parts = algorithm.tlv.bytes
        if let parameters { parts += parameters }
        return TLV(tag: DER.sequence, value: parts)
    }
}
