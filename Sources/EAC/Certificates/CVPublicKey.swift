import EIDCrypto
import SmartCard

/// The public key of a CV certificate (TR-03110-3, D.3.3): `7F49 { 06 algorithm, [81 p, 82 a,
/// 83 b, 84 G, 85 r], 86 Y, [87 f] }`. CVCA certificates carry the domain parameters; DV and
/// terminal certificates carry only the point and inherit the parameters from the CVCA.
/// Values are kept as encoded, so that a parsed key re-encodes byte for byte.
public struct CVPublicKey: Equatable, Sendable {
    public static let tag: UInt32 = 0x7F49

    public let algorithm: TAAlgorithm
    /// The explicit domain parameters, or nil when they are inherited.
    public let domainParameters: ECDomainParameters?
    /// The public point Y, uncompressed (04 || x || y).
    public let publicPoint: [UInt8]

    public init(algorithm: TAAlgorithm, domainParameters: ECDomainParameters?, publicPoint: [UInt8]) {
        self.algorithm = algorithm
        self.domainParameters = domainParameters
        self.publicPoint = publicPoint
    }

    /// The key `point` with the explicit parameters of its group when `includingDomainParameters`.
    public init(algorithm: TAAlgorithm, point: ECPoint, includingDomainParameters: Bool) throws {
        self.init(
            algorithm: algorithm, domainParameters: includingDomainParameters ? try point.group.domainParameters : nil,
            publicPoint: point.encoded)
    }

    init(tlv: TLV) throws {
        var reader = CVDataObjectReader(tlv)
        let oid = try reader.readObjectIdentifier()
        guard let algorithm = TAAlgorithm(oid) else {
            throw CVCertificateError.unsupportedPublicKeyAlgorithm(oid.dotted)
        }
        var parameters: [UInt32: [UInt8]] = [:]
        for tag: UInt32 in [0x81, 0x82, 0x83, 0x84, 0x85] {
            if let value = try reader.readIfPresent(tag)?.value { parameters[tag] = value }
        }
        let point = try reader.read(0x86).value
        if let value = try reader.readIfPresent(0x87)?.value { parameters[0x87] = value }
        try reader.finish()
        self.algorithm = algorithm
        self.publicPoint = point
        if parameters.isEmpty {
            domainParameters = nil
        } else if let prime = parameters[0x81], let a = parameters[0x82], let b = parameters[0x83],
            let generator = parameters[0x84], let order = parameters[0x85], let cofactor = parameters[0x87]
        {
            domainParameters = ECDomainParameters(
                prime: prime, a: a, b: b, generator: generator, order: order, cofactor: cofactor)
        } else {
            throw CVCertificateError.incompleteDomainParameters
        }
        guard point.first == 0x04, point.count > 1, point.count % 2 == 1 else {
            throw CVCertificateError.invalidPublicPoint
        }
    }

    public var tlv: TLV {
        var children = [algorithm.objectIdentifier.tlv]
        if let d = domainParameters {
            children += [TLV(tag: 0x81, value: d.prime), TLV(tag: 0x82, value: d.a), TLV(tag: 0x83, value: d.b)]
            children += [TLV(tag: 0x84, value: d.generator), TLV(tag: 0x85, value: d.order)]
        }
        children.append(TLV(tag: 0x86, value: publicPoint))
        if let d = domainParameters { children.append(TLV(tag: 0x87, value: d.cofactor)) }
        return TLV(tag: CVPublicKey.tag, children: children)
    }

    /// The group of this key's own domain parameters, or of `inherited` when it has none.
    public func group(inheriting inherited: ECDomainParameters?) throws -> ECGroup {
        guard let parameters = domainParameters ?? inherited else { throw CVCertificateError.missingDomainParameters }
        do { return try ECGroup(try parameters.curve()) } catch is ECDSAError {
            throw CVCertificateError.unsupportedDomainParameters
        }
    }

    /// The public point on the group of its own or the inherited domain parameters, validated.
    public func point(inheriting inherited: ECDomainParameters?) throws -> ECPoint {
        let group = try group(inheriting: inherited)
        do { return try ECPoint(group: group, encoded: publicPoint) } catch {
            throw CVCertificateError.invalidPublicPoint
        }
    }
}
