import EIDCrypto
import SmartCard

/// Chip Authentication version 2, terminal side (BSI TR-03110-2, 3.4; TR-03110-3, B.14.1,
/// B.11.2; docs/protocol.md, "Chip Authentication"): MSE:Set AT, GENERAL AUTHENTICATE with the ephemeral key
/// announced in Terminal Authentication, the check of the card's token and the new session
/// keys. When the channel is a `SecureMessaging` channel it continues under the new keys
/// with SSC 0.
public struct ChipAuthentication {
    /// What EF.CardSecurity offers for Chip Authentication, as chosen by `select(from:)`.
    public struct Selection: Sendable {
        public let `protocol`: ChipAuthenticationProtocol
        public let keyID: Int?
        /// The chip's static public key PK_PICC.
        public let publicKey: ECPoint
    }

    public let channel: CardChannel

    public init(channel: CardChannel) { self.channel = channel }

    /// The first ChipAuthenticationInfo of version 2 with a protocol this library runs, and the
    /// ChipAuthenticationPublicKeyInfo (id-PK-ECDH, standardized domain parameters) of its key id.
    public static func select(from infos: SecurityInfos) throws -> Selection {
        guard
            let (info, proto) = infos.chipAuthenticationInfos.lazy.compactMap({ info in
                ChipAuthenticationProtocol(oid: info.protocol).map { (info, $0) }
            }).first(where: { $0.0.version == 2 })
        else { throw ChipAuthenticationError.noChipAuthenticationInfo }
        let keys = infos.chipAuthenticationPublicKeyInfos.filter { $0.protocol == .idPKECDH }
        guard let keyInfo = keys.first(where: { $0.keyID == info.keyID }) ?? (keys.count == 1 ? keys.first : nil),
            let id = keyInfo.chipAuthenticationPublicKey.algorithm.standardizedDomainParameterID,
            let group = try? ECGroup(standardizedDomainParameterID: id),
            let point = try? ECPoint(group: group, encoded: keyInfo.chipAuthenticationPublicKey.publicKey)
        else { throw ChipAuthenticationError.noUsablePublicKey(keyID: info.keyID) }
        return Selection(protocol: proto, keyID: info.keyID, publicKey: point)
    }

    /// Runs CA with `ephemeralKey` (on the group of `selection.publicKey`; the key whose
    /// Comp() went into TA). Checks T_PICC and restarts secure messaging under the new keys.
    public func run(selection: Selection, ephemeralKey: ECKeyPair) throws -> ChipAuthenticationResult {
        guard ephemeralKey.publicKey.group == selection.publicKey.group else {
            throw ChipAuthenticationError.ephemeralKeyOnWrongCurve
        }
        try send(.mseSetAT(chipAuthentication: selection.protocol, keyID: selection.keyID), step: .setAT)
        let response = try send(
            .generalAuthenticate(chipAuthentication: ephemeralKey.publicKey), step: .generalAuthenticate)
        guard let data = try? DynamicAuthenticationData(bytes: response.data),
            data.objects.map(\.tag) == [0x81, 0x82], let nonce = data[0x81], let token = data[0x82],
            nonce.count == ChipAuthenticationSteps.nonceLength, token.count == 8
        else { throw ChipAuthenticationError.malformedResponse }
        let result = try ChipAuthentication.terminalKeys(
            protocol: selection.protocol, chipKey: selection.publicKey, ephemeralKey: ephemeralKey, nonce: nonce,
            token: token)
        if let secure = channel as? SecureMessaging { secure.restart(keys: result.sessionKeys) }
        return result
    }

    /// The terminal's (or eID server's) computation: K from the ephemeral private key and the chip's static
    /// key, the keys from K and r_PICC, and the check of T_PICC (docs/protocol.md, "Chip Authentication").
    public static func terminalKeys(
        protocol: ChipAuthenticationProtocol, chipKey: ECPoint, ephemeralKey: ECKeyPair, nonce: [UInt8],
        token: [UInt8]
    ) throws -> ChipAuthenticationResult {
        let steps = ChipAuthenticationSteps(protocol: `protocol`)
        var secret = try ephemeralKey.sharedSecret(with: chipKey)
        defer { Secret.zero(&secret) }
        let keys = try steps.sessionKeys(sharedSecret: secret, nonce: nonce)
        guard try steps.verifyToken(token, keys: keys, terminalKey: ephemeralKey.publicKey) else {
            keys.wipe()
            throw ChipAuthenticationError.tokenMismatch
        }
        return ChipAuthenticationResult(nonce: nonce, token: token, sessionKeys: keys)
    }

    @discardableResult
    func send(_ command: CommandAPDU, step: EACStep) throws -> ResponseAPDU {
        let response = try channel.transmit(command)
        guard response.statusWord == .success else {
            throw ChipAuthenticationError.refused(step: step, EACCommandOutcome(statusWord: response.statusWord))
        }
        return response
    }
}

/// What Chip Authentication yields on the terminal side.
public struct ChipAuthenticationResult: Sendable {
    /// r_PICC (EAC2 output `Nonce`).
    public let nonce: [UInt8]
    /// T_PICC (EAC2 output `AuthenticationToken`).
    public let token: [UInt8]
    /// The new KSenc / KSmac.
    public let sessionKeys: SessionKeys
}
