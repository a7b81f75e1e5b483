import EIDCrypto
import SmartCard

/// The computations of Chip Authentication version 2 that chip and terminal share (BSI
/// TR-03110-2, 3.4; TR-03110-3, A.2.3, A.3.3; docs/protocol.md, "Chip Authentication"):
/// K = x(ECDH), KSenc = KDF(K, r_PICC, 1), KSmac = KDF(K, r_PICC, 2), and the chip's token
/// T_PICC = CMAC(KSmac, 7F49 { 06 CA OID, 86 PK_PCD })[:8].
public struct ChipAuthenticationSteps: Sendable {
    public static let nonceLength = 8

    public let `protocol`: ChipAuthenticationProtocol

    public init(protocol: ChipAuthenticationProtocol) { self.protocol = `protocol` }

    /// KSenc and KSmac from the shared secret K and the chip's nonce r_PICC.
    public func sessionKeys(sharedSecret: [UInt8], nonce: [UInt8]) throws -> SessionKeys {
        let length = `protocol`.keyLength
        var encryption = try KDF.derive(secret: sharedSecret, nonce: nonce, counter: .encryption, keyLength: length)
        var mac = try KDF.derive(secret: sharedSecret, nonce: nonce, counter: .mac, keyLength: length)
        return SessionKeys(consumingEncryption: &encryption, mac: &mac)
    }

    /// The token input: 7F49 { 06 CA protocol OID, 86 PK_PCD }.
    public func tokenInput(terminalKey: ECPoint) -> [UInt8] {
        TLV(tag: 0x7F49, children: [`protocol`.oid.tlv, TLV(tag: 0x86, value: terminalKey.encoded)]).bytes
    }

    /// T_PICC over the terminal's ephemeral key.
    public func token(keys: SessionKeys, terminalKey: ECPoint) throws -> [UInt8] {
        try keys.withMACKey { Array(try CMAC.aes(key: $0, message: tokenInput(terminalKey: terminalKey)).prefix(8)) }
    }

    /// Whether `token` is T_PICC, compared in constant time.
    public func verifyToken(_ token: [UInt8], keys: SessionKeys, terminalKey: ECPoint) throws -> Bool {
        ConstantTime.equals(token, try self.token(keys: keys, terminalKey: terminalKey))
    }
}
