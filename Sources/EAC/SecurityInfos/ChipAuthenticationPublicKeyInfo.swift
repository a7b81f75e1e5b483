import SmartCard

/// ChipAuthenticationPublicKeyInfo (TR-03110-3, A.1.1.2): the chip's static Chip
/// Authentication key, found in EF.CardSecurity.
public struct ChipAuthenticationPublicKeyInfo: Equatable, Sendable {
    /// id-PK-DH or id-PK-ECDH.
    public var `protocol`: OID
    public var chipAuthenticationPublicKey: SubjectPublicKeyInfo
    public var keyID: Int?

    public init(protocol: OID, chipAuthenticationPublicKey: SubjectPublicKeyInfo, keyID: Int? = nil) {
        self.protocol = `protocol`
        self.chipAuthenticationPublicKey = chipAuthenticationPublicKey
        self.keyID = keyID
    }
}
