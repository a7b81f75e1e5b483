/// SubjectPublicKeyInfo (RFC 5280) as TR-03110 uses it for the chip's static CA key.
public struct SubjectPublicKeyInfo: Equatable, Sendable {
    public var algorithm: AlgorithmIdentifier
    /// The BIT STRING's content: for ECDH the uncompressed point 04 || X || Y.
    public var publicKey: [UInt8]

    public init(algorithm: AlgorithmIdentifier, publicKey: [UInt8]) {
        self.algorithm = algorithm
        self.publicKey = publicKey
    }
}
