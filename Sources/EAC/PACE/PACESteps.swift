import EIDCrypto
import SmartCard

/// The cryptographic steps of PACE with ECDH generic mapping (BSI TR-03110-2, 3.2 and
/// TR-03110-3, A.3; ICAO 9303-11, 4.4), shared by the terminal (`PACE`) and the software card,
/// so that both sides compute every value with the same code. Each step is a plain function
/// that tests can check against published traces.
public struct PACESteps: Sendable {
    public let `protocol`: PACEProtocol
    public let group: ECGroup

    /// Steps for `protocol` on `group`; throws `PACEError.unsupportedProtocol` for anything but
    /// ECDH generic mapping with AES.
    public init(protocol: PACEProtocol, group: ECGroup) throws {
        guard `protocol`.isSupported else { throw PACEError.unsupportedProtocol(`protocol`.oid) }
        self.protocol = `protocol`
        self.group = group
    }

    /// Steps for `protocol` on the curve with TR-03110 standardized domain parameter id `id`.
    public init(protocol: PACEProtocol, domainParameterID id: Int) throws {
        guard `protocol`.isSupported else { throw PACEError.unsupportedProtocol(`protocol`.oid) }
        guard let curve = ECCurve(standardizedDomainParameterID: id) else {
            throw PACEError.unsupportedDomainParameter(id)
        }
        try self.init(protocol: `protocol`, group: try ECGroup(curve))
    }

    public var keyLength: Int { `protocol`.cipher.keyLength }

    // MARK: step 1, encrypted nonce

    /// K_π = KDF_π(π) (TR-03110-3, A.2.3).
    public func passwordKey(_ password: PACEPassword) throws -> [UInt8] {
        try password.key(keyLength: keyLength)
    }

    /// The card's random nonce s, one AES block (ICAO 9303-11, 4.4.3.3).
    public func randomNonce() throws -> [UInt8] { try SecureRandom.bytes(AES.blockSize) }

    /// z = E(K_π, s): AES-CBC with a zero IV (TR-03110-3, A.3.3; card side).
    public func encryptNonce(_ nonce: [UInt8], passwordKey: [UInt8]) throws -> [UInt8] {
        try AES.encryptCBC(key: passwordKey, iv: zeroIV, data: nonce)
    }

    /// s = D(K_π, z) (terminal side). z must be a non-empty whole number of blocks.
    public func decryptNonce(_ encryptedNonce: [UInt8], passwordKey: [UInt8]) throws -> [UInt8] {
        guard !encryptedNonce.isEmpty else { throw CryptoError.invalidDataLength(0) }
        return try AES.decryptCBC(key: passwordKey, iv: zeroIV, data: encryptedNonce)
    }

    private var zeroIV: [UInt8] { [UInt8](repeating: 0, count: AES.blockSize) }

    // MARK: step 2, generic mapping

    /// A public key received from the other side, validated (uncompressed, on the curve).
    public func publicKey(_ encoded: [UInt8]) throws -> ECPoint { try ECPoint(group: group, encoded: encoded) }

    /// The mapping key pair (d, d · G) on the standard generator.
    public func mappingKeyPair(_ privateKey: ECPrivateKey) throws -> ECKeyPair {
        try ECKeyPair(privateKey: privateKey)
    }

    /// The generic mapping G~ = s · G + H with H = d · PK_peer (ICAO 9303-11, 4.4.3.3.1;
    /// TR-03110-3, A.3.4.1). Both sides compute the same point.
    public func mapGenerator(nonce: [UInt8], mappingKey: ECKeyPair, peerMappingKey: ECPoint) throws -> ECPoint {
        let h = try mappingKey.sharedPoint(with: peerMappingKey)
        return try group.generator().multiplied(by: nonce).adding(h)
    }

    // MARK: step 3, key agreement

    /// The ephemeral key pair (d, d · G~) on the mapped generator.
    public func ephemeralKeyPair(_ privateKey: ECPrivateKey, generator: ECPoint) throws -> ECKeyPair {
        try ECKeyPair(privateKey: privateKey, base: generator)
    }

    /// K = x(d · PK_peer). Throws `PACEError.invalidKeyAgreement(step: 3)` when the peer's
    /// ephemeral key equals the own one (TR-03110-2, 3.2.1, required check).
    public func sharedSecret(ephemeralKey: ECKeyPair, peerEphemeralKey: ECPoint) throws -> [UInt8] {
        guard ephemeralKey.publicKey != peerEphemeralKey else { throw PACEError.invalidKeyAgreement(step: 3) }
        return try ephemeralKey.sharedSecret(with: peerEphemeralKey)
    }

    /// KSenc = KDF_enc(K), KSmac = KDF_mac(K) (TR-03110-3, A.2.3). The derived arrays move
    /// into the keys' zeroing storage; the caller wipes K.
    public func sessionKeys(sharedSecret: [UInt8]) throws -> SessionKeys {
        var encryption = try KDF.derive(secret: sharedSecret, counter: .encryption, keyLength: keyLength)
        defer { Cleanse.zero(&encryption) }
        var mac = try KDF.derive(secret: sharedSecret, counter: .mac, keyLength: keyLength)
        return SessionKeys(consumingEncryption: &encryption, mac: &mac)
    }

    // MARK: step 4, authentication tokens

    /// The token input: the public key data object 7F49 { 06 protocol OID, 86 public point }
    /// (TR-03110-3, A.2.4.2 and D.3.3).
    public func authenticationTokenInput(over publicKey: ECPoint) -> [UInt8] {
        TLV(tag: 0x7F49, children: [`protocol`.oid.tlv, TLV(tag: 0x86, value: publicKey.encoded)]).bytes
    }

    /// T = MAC(KSmac, 7F49{…, PK}) truncated to 8 bytes (TR-03110-3, A.2.4.2). The terminal
    /// sends T_PCD over the card's ephemeral key; the card sends T_PICC over the terminal's.
    public func authenticationToken(macKey: [UInt8], over publicKey: ECPoint) throws -> [UInt8] {
        Array(try CMAC.aes(key: macKey, message: authenticationTokenInput(over: publicKey)).prefix(8))
    }

    /// Whether `token` is the token over `publicKey`, compared in constant time.
    public func verifyAuthenticationToken(_ token: [UInt8], macKey: [UInt8], over publicKey: ECPoint) throws -> Bool {
        ConstantTime.equals(token, try authenticationToken(macKey: macKey, over: publicKey))
    }
}
