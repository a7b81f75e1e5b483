import EIDCrypto

/// Which of its two ephemeral key pairs a PACE side asks for.
public enum PACEKeyPurpose: Sendable {
    /// The key pair of the generic mapping (step 2).
    case mapping
    /// The ephemeral key pair on the mapped generator (step 3).
    case keyAgreement
}

/// Where a PACE side gets its ephemeral private keys. Production uses `RandomPACEKeySource`;
/// tests fix the keys to published values with `FixedPACEKeySource`.
public protocol PACEKeySource {
    func privateKey(for purpose: PACEKeyPurpose, group: ECGroup) throws -> ECPrivateKey
}

/// Fresh random keys from OpenSSL's DRBG.
public struct RandomPACEKeySource: PACEKeySource {
    public init() {}

    public func privateKey(for purpose: PACEKeyPurpose, group: ECGroup) throws -> ECPrivateKey {
        try ECPrivateKey(randomIn: group)
    }
}

/// Fixed keys (big-endian scalars), for reproducing published traces.
public struct FixedPACEKeySource: PACEKeySource {
    public let mapping: [UInt8]
    public let keyAgreement: [UInt8]

    public init(mapping: [UInt8], keyAgreement: [UInt8]) {
        self.mapping = mapping
        self.keyAgreement = keyAgreement
    }

    public func privateKey(for purpose: PACEKeyPurpose, group: ECGroup) throws -> ECPrivateKey {
        try ECPrivateKey(group: group, scalar: purpose == .mapping ? mapping : keyAgreement)
    }
}
