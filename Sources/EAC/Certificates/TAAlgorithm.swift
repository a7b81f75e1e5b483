import EIDCrypto

/// The Terminal Authentication signature algorithms this library supports: ECDSA with the hash
/// of the id-TA-ECDSA-SHA-* identifier (TR-03110-3, A.6.2.2), which also names the hash for
/// everything hashed with the key (certificate description, CommCertificates).
public enum TAAlgorithm: CaseIterable, Sendable {
    case ecdsaSHA1, ecdsaSHA224, ecdsaSHA256, ecdsaSHA384, ecdsaSHA512

    public var objectIdentifier: OID {
        switch self {
        case .ecdsaSHA1: return OID.idTA.appending(2, 1)
        case .ecdsaSHA224: return OID.idTA.appending(2, 2)
        case .ecdsaSHA256: return OID.idTA.appending(2, 3)
        case .ecdsaSHA384: return OID.idTA.appending(2, 4)
        case .ecdsaSHA512: return OID.idTA.appending(2, 5)
        }
    }

    public var digest: Digest {
        switch self {
        case .ecdsaSHA1: return .sha1
        case .ecdsaSHA224: return .sha224
        case .ecdsaSHA256: return .sha256
        case .ecdsaSHA384: return .sha384
        case .ecdsaSHA512: return .sha512
        }
    }

    public init?(_ oid: OID) {
        guard let algorithm = TAAlgorithm.allCases.first(where: { $0.objectIdentifier == oid }) else { return nil }
        self = algorithm
    }
}
