import EIDCrypto

/// What the terminal signs in Terminal Authentication version 2 (TR-03110-3, B.11.6 / A.6.2.2;
/// docs/protocol.md, "Terminal Authentication"): ID_PICC ‖ r_PICC ‖ Comp(PK_PCD) ‖ AuxData, where ID_PICC is the
/// compressed ephemeral PACE key of the card, r_PICC the 8-byte challenge of GET CHALLENGE,
/// Comp(PK_PCD) the x-coordinate of the terminal's ephemeral Chip Authentication key (field
/// length, TR-03111 FE2OS) and AuxData the whole `67` object, or nothing.
public struct TerminalAuthenticationSignatureInput: Equatable, Sendable {
    public static let challengeLength = 8

    public var idPICC: [UInt8]
    public var challenge: [UInt8]
    public var compressedEphemeralKey: [UInt8]
    public var auxiliaryData: [UInt8]?

    public init(idPICC: [UInt8], challenge: [UInt8], compressedEphemeralKey: [UInt8], auxiliaryData: [UInt8]?) {
        self.idPICC = idPICC
        self.challenge = challenge
        self.compressedEphemeralKey = compressedEphemeralKey
        self.auxiliaryData = auxiliaryData
    }

    /// Comp(PK) for an EC key: its x-coordinate, `group.fieldSize` bytes.
    public static func compress(_ key: ECPoint) -> [UInt8] { key.x }

    /// The bytes that are signed.
    public var bytes: [UInt8] { idPICC + challenge + compressedEphemeralKey + (auxiliaryData ?? []) }

    /// The plain signature r ‖ s of the terminal key over these bytes (for tests and the test server).
    public func sign(with key: ECPrivateKey, algorithm: TAAlgorithm) throws -> [UInt8] {
        try ECDSA.sign(bytes, digest: algorithm.digest, privateKey: key)
    }

    /// Whether `signature` is the terminal's signature over these bytes. A signature of the
    /// wrong length does not verify.
    public func verify(_ signature: [UInt8], with key: ECPoint, algorithm: TAAlgorithm) -> Bool {
        (try? ECDSA.verify(signature, of: bytes, digest: algorithm.digest, publicKey: key)) ?? false
    }
}
