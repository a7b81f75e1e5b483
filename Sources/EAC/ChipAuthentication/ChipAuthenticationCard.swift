import EIDCrypto
import SmartCard

/// Chip Authentication version 2, card side (BSI TR-03110-3, B.14.1, B.11.2): the chip's static
/// key pair, MSE:Set AT and GENERAL AUTHENTICATE. Each method throws `CardError.statusWord`
/// with the card's answer:
///
/// | command | rule | SW |
/// |---|---|---|
/// | MSE:Set AT (CA) | 80 [84] only | else 6A80 |
/// | | the protocol is the card's | else 6A80 |
/// | | the key id, when given, is the card's | else 6A88 |
/// | GENERAL AUTHENTICATE | after MSE:Set AT for CA and a successful TA | else 6985 |
/// | | 7C { 80 PK_PCD }, a point on the card's curve | else 6A80 |
/// | | Comp(PK_PCD) is the key TA announced | else 6A80 |
/// | | → 7C { 81 r_PICC, 82 T_PICC }; the new keys apply from the next command, SSC 0 | 9000 |
public struct ChipAuthenticationCard: Sendable {
    public let `protocol`: ChipAuthenticationProtocol
    public let keyID: Int?
    public let staticKey: ECKeyPair

    public init(protocol: ChipAuthenticationProtocol, keyID: Int?, staticKey: ECKeyPair) {
        self.protocol = `protocol`
        self.keyID = keyID
        self.staticKey = staticKey
    }

    /// MSE:Set AT for CA.
    public func setAuthenticationTemplate(data: [UInt8]) throws {
        guard let template = try? ChipAuthenticationTemplate(data: data), template.protocol == `protocol`.oid else {
            throw CardError.statusWord(.wrongData)
        }
        if let requested = template.keyID, requested != keyID { throw CardError.statusWord(.referenceDataNotFound) }
    }

    /// GENERAL AUTHENTICATE for CA: the answer data and the new session keys. `announcedKey`
    /// is Comp(PK_PCD) from TA (nil: TA has not succeeded → 6985). `nonce` defaults to fresh random bytes.
    public func generalAuthenticate(data: [UInt8], announcedKey: [UInt8]?, nonce: [UInt8]? = nil) throws
        -> (response: [UInt8], keys: SessionKeys)
    {
        guard let announcedKey else { throw CardError.statusWord(.conditionsOfUseNotSatisfied) }
        guard let template = try? DynamicAuthenticationData(bytes: data), template.objects.map(\.tag) == [0x80],
            let encoded = template[0x80],
            let terminalKey = try? ECPoint(group: staticKey.publicKey.group, encoded: encoded),
            ConstantTime.equals(TerminalAuthenticationSignatureInput.compress(terminalKey), announcedKey)
        else { throw CardError.statusWord(.wrongData) }
        let steps = ChipAuthenticationSteps(protocol: `protocol`)
        let r = try nonce ?? SecureRandom.bytes(ChipAuthenticationSteps.nonceLength)
        var secret = try staticKey.sharedSecret(with: terminalKey)
        defer { Secret.zero(&secret) }
        let keys = try steps.sessionKeys(sharedSecret: secret, nonce: r)
        let token = try steps.token(keys: keys, terminalKey: terminalKey)
        let response = DynamicAuthenticationData([TLV(tag: 0x81, value: r), TLV(tag: 0x82, value: token)]).bytes
        return (response, keys)
    }

    /// ChipAuthenticationInfo and ChipAuthenticationPublicKeyInfo for EF.CardSecurity (and the
    /// first also for EF.CardAccess).
    public func securityInfos(domainParameterID: Int) -> [SecurityInfo] {
        [
            .chipAuthentication(ChipAuthenticationInfo(protocol: `protocol`.oid, version: 2, keyID: keyID)),
            .chipAuthenticationPublicKey(
                ChipAuthenticationPublicKeyInfo(
                    protocol: .idPKECDH,
                    chipAuthenticationPublicKey: SubjectPublicKeyInfo(
                        algorithm: .standardized(domainParameterID), publicKey: staticKey.publicKey.encoded),
                    keyID: keyID)),
        ]
    }
}
