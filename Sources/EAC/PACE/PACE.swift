import EIDCrypto
import SmartCard

/// PACE on the terminal side (BSI TR-03110-2, 3.2; TR-03110-3, B.1; ICAO 9303-11, 4.4):
/// MSE:Set AT, then General Authenticate steps 1-4 as a command chain, with ECDH generic
/// mapping and AES. Runs over a plain channel; `establishSecureMessaging()` returns the
/// `SecureMessaging` channel wrapping it.
///
///     let pace = try PACE(channel: reader, paceInfo: cardAccess.runnablePACEInfo(), password: .pin("123456"))
///     let (result, secure) = try pace.establishSecureMessaging()
public final class PACE {
    public let channel: CardChannel
    public let steps: PACESteps
    public let password: PACEPassword
    /// The complete 7F4C CHAT object for MSE:Set AT, if any.
    public let chat: [UInt8]?
    public let keySource: PACEKeySource

    public init(
        channel: CardChannel, protocol: PACEProtocol, domainParameterID: Int, password: PACEPassword,
        chat: [UInt8]? = nil, keySource: PACEKeySource = RandomPACEKeySource()
    ) throws {
        self.channel = channel
        self.steps = try PACESteps(protocol: `protocol`, domainParameterID: domainParameterID)
        self.password = password
        self.chat = chat
        self.keySource = keySource
    }

    /// PACE as a PACEInfo of EF.CardAccess describes it (standardized domain parameters only;
    /// `SecurityInfos.runnablePACEInfo()` picks one eid can run).
    public convenience init(
        channel: CardChannel, paceInfo: PACEInfo, password: PACEPassword, chat: [UInt8]? = nil,
        keySource: PACEKeySource = RandomPACEKeySource()
    ) throws {
        guard let proto = paceInfo.paceProtocol else { throw PACEError.unsupportedProtocol(paceInfo.protocol) }
        guard let id = paceInfo.parameterID else { throw PACEError.unsupportedDomainParameter(nil) }
        guard id < PACEInfo.firstProprietaryParameterID else { throw PACEError.proprietaryDomainParameters(id) }
        try self.init(
            channel: channel, protocol: proto, domainParameterID: id, password: password, chat: chat,
            keySource: keySource)
    }

    /// Sends MSE:Set AT and returns its outcome when PACE may follow (ready, a retry counter,
    /// suspended, blocked, deactivated); a refused one throws `setAuthenticationTemplateFailed`.
    public func setAuthenticationTemplate() throws -> MSESetATOutcome {
        let command = try CommandAPDU.mseSetAT(pace: steps.protocol.oid, password: password.type, chat: chat)
        let outcome = MSESetATOutcome(statusWord: try channel.transmit(command).statusWord)
        guard outcome.allowsPACE else { throw PACEError.setAuthenticationTemplateFailed(outcome.statusWord) }
        return outcome
    }

    /// General Authenticate steps 1-4 (after MSE:Set AT). `setATStatus` is passed through to
    /// the result.
    public func generalAuthenticate(setATStatus: StatusWord = .success) throws -> PACEResult {
        do {
            return try performGeneralAuthenticate(setATStatus: setATStatus)
        } catch let e as CryptoError {
            throw PACEError.crypto(e)
        }
    }

    /// MSE:Set AT followed by General Authenticate.
    public func run() throws -> PACEResult {
        let outcome = try setAuthenticationTemplate()
        return try generalAuthenticate(setATStatus: outcome.statusWord)
    }

    /// Runs PACE and returns the secure messaging channel with the new keys. When `channel`
    /// is itself a `SecureMessaging` channel (PACE with the PIN inside the CAN session of a
    /// suspended PIN, TR-03110-2 3.5.1), the new session replaces it: the result wraps the
    /// plain channel underneath and the old session is closed.
    public func establishSecureMessaging() throws -> (result: PACEResult, channel: SecureMessaging) {
        let result = try run()
        if let previous = channel as? SecureMessaging {
            previous.close()
            return (result, SecureMessaging(wrapping: previous.underlying, keys: result.sessionKeys))
        }
        return (result, SecureMessaging(wrapping: channel, keys: result.sessionKeys))
    }

    private func performGeneralAuthenticate(setATStatus: StatusWord) throws -> PACEResult {
        typealias Tag = DynamicAuthenticationData.Tag
        let group = steps.group

        // Step 1: encrypted nonce.
        let r1 = try exchange(step: 1, DynamicAuthenticationData())
        guard let z = r1[Tag.encryptedNonce] else { throw PACEError.malformedResponse(step: 1) }
        // K_π and the nonce s would let anyone who reads this memory test PINs offline.
        var passwordKey = try steps.passwordKey(password)
        defer { Secret.zero(&passwordKey) }
        var nonce: [UInt8]
        do { nonce = try steps.decryptNonce(z, passwordKey: passwordKey) } catch {
            throw PACEError.malformedResponse(step: 1)
        }
        defer { Secret.zero(&nonce) }
        guard nonce.count == 16 else { throw PACEError.malformedResponse(step: 1) }

        // Step 2: generic mapping.
        let mappingKey = try steps.mappingKeyPair(try keySource.privateKey(for: .mapping, group: group))
        let r2 = try exchange(
            step: 2, DynamicAuthenticationData([TLV(tag: Tag.terminalMappingData, value: mappingKey.publicKey.encoded)])
        )
        guard let chipMapping = r2[Tag.chipMappingData], let chipMappingKey = try? steps.publicKey(chipMapping) else {
            throw PACEError.malformedResponse(step: 2)
        }
        let generator: ECPoint
        do {
            generator = try steps.mapGenerator(nonce: nonce, mappingKey: mappingKey, peerMappingKey: chipMappingKey)
        } catch { throw PACEError.invalidKeyAgreement(step: 2) }

        // Step 3: key agreement on the mapped generator.
        let ephemeralKey = try steps.ephemeralKeyPair(
            try keySource.privateKey(for: .keyAgreement, group: group), generator: generator)
        let r3 = try exchange(
            step: 3,
            DynamicAuthenticationData([TLV(tag: Tag.terminalEphemeralPublicKey, value: ephemeralKey.publicKey.encoded)])
        )
        guard let chipEphemeral = r3[Tag.chipEphemeralPublicKey], let chipKey = try? steps.publicKey(chipEphemeral)
        else { throw PACEError.malformedResponse(step: 3) }
        var secret = try steps.sharedSecret(ephemeralKey: ephemeralKey, peerEphemeralKey: chipKey)
        let keys: SessionKeys
        do {
            defer { Secret.zero(&secret) }
            keys = try steps.sessionKeys(sharedSecret: secret)
        }

        // Step 4: mutual authentication. A failed run wipes the keys it derived.
        var succeeded = false
        defer { if !succeeded { keys.wipe() } }
        let token = try keys.withMACKey { try steps.authenticationToken(macKey: $0, over: chipKey) }
        let r4 = try exchange(step: 4, DynamicAuthenticationData([TLV(tag: Tag.terminalToken, value: token)]))
        guard let chipToken = r4[Tag.chipToken] else { throw PACEError.malformedResponse(step: 4) }
        guard
            try keys.withMACKey({
                try steps.verifyAuthenticationToken(chipToken, macKey: $0, over: ephemeralKey.publicKey)
            })
        else { throw PACEError.tokenMismatch }
        succeeded = true
        let car = { (tag: UInt32) in r4[tag].map { String(decoding: $0, as: UTF8.self) } }
        return PACEResult(
            protocol: steps.protocol, sessionKeys: keys, idPICC: chipKey.x, chipEphemeralPublicKey: chipKey.encoded,
            setAuthenticationTemplateStatus: setATStatus, mostRecentCAR: car(Tag.certificationAuthorityReference1),
            previousCAR: car(Tag.certificationAuthorityReference2),
            encryptedChipAuthenticationData: r4[Tag.encryptedChipAuthenticationData])
    }

    /// One General Authenticate: steps 1-3 chained (CLA 10), step 4 last (CLA 00).
    private func exchange(step: Int, _ data: DynamicAuthenticationData) throws -> DynamicAuthenticationData {
        let response = try channel.transmit(CommandAPDU.generalAuthenticate(pace: data, isLast: step == 4))
        guard response.isSuccess else { throw PACEError.generalAuthenticateFailed(step: step, response.statusWord) }
        guard let content = try? DynamicAuthenticationData(bytes: response.data) else {
            throw PACEError.malformedResponse(step: step)
        }
        return content
    }
}
