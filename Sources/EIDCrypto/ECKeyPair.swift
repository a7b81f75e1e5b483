import COpenSSL

/// An elliptic curve private key: a scalar d in 1 ..< n. The BIGNUM is cleared when freed.
/// Not printable and not encodable: the scalar leaves only through `rawScalar()`.
public final class ECPrivateKey: @unchecked Sendable {
    public let group: ECGroup
    let scalar: BigNumber

    /// A private key from its big-endian scalar (leading zeros allowed); throws
    /// `invalidScalar` unless 1 <= d < n.
    public init(group: ECGroup, scalar bytes: [UInt8]) throws {
        self.group = group
        self.scalar = try group.validScalar(bytes)
    }

    /// A fresh random private key.
    public convenience init(randomIn group: ECGroup) throws {
        var scalar = try group.randomScalar()
        defer { Cleanse.zero(&scalar) }
        try self.init(group: group, scalar: scalar)
    }

    /// The scalar, `group.orderSize` bytes big-endian (for a software card's key store).
    public func rawScalar() throws -> [UInt8] { try scalar.bytes(paddedTo: group.orderSize) }

    /// d · point: the full point, as the generic mapping needs (H = d · PK, ICAO 9303-11 4.4.3.3.1).
    public func multiply(_ point: ECPoint) throws -> ECPoint {
        guard point.group == group else { throw CryptoError.groupMismatch }
        return try point.multiplied(by: scalar, context: try BigNumberContext())
    }
}

/// An elliptic curve key pair whose public key is d · B for a base point B that need not be the
/// curve's standard generator: PACE's ephemeral keys use the mapped generator G~
/// (BSI TR-03110-2, 3.2; ICAO 9303-11, 4.4).
public struct ECKeyPair: @unchecked Sendable {
    public let privateKey: ECPrivateKey
    public let publicKey: ECPoint

    /// The key pair (d, d · base). `base` defaults to the group's standard generator.
    public init(privateKey: ECPrivateKey, base: ECPoint? = nil) throws {
        let base = try base ?? privateKey.group.generator()
        guard base.group == privateKey.group else { throw CryptoError.groupMismatch }
        self.privateKey = privateKey
        self.publicKey = try privateKey.multiply(base)
    }

    /// A key pair from a fixed scalar, for tests and for keys kept by a software card.
    public init(group: ECGroup, privateScalar: [UInt8], base: ECPoint? = nil) throws {
        try self.init(privateKey: try ECPrivateKey(group: group, scalar: privateScalar), base: base)
    }

    /// A fresh random key pair on `base` (default: the standard generator).
    public static func generate(group: ECGroup, base: ECPoint? = nil) throws -> ECKeyPair {
        try ECKeyPair(privateKey: try ECPrivateKey(randomIn: group), base: base)
    }

    /// ECDH (BSI TR-03110-3, A.2.3 / ECKA of TR-03111): the x-coordinate of d · peer,
    /// `group.fieldSize` bytes. The peer key is an `ECPoint`, hence already validated.
    public func sharedSecret(with peer: ECPoint) throws -> [UInt8] {
        try privateKey.multiply(peer).x
    }

    /// d · peer, the full point (generic mapping's H).
    public func sharedPoint(with peer: ECPoint) throws -> ECPoint {
        try privateKey.multiply(peer)
    }
}
