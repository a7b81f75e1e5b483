import EAC
import EIDCrypto
import SmartCard

/// The authentication's card session on an eID card: PACE with the effective CHAT over the plain
/// channel (or the CAN's secure messaging) on a basic reader, or on the reader's PIN pad (the EAC
/// commands then go plain to the reader, which protects them in its channel), GET CHALLENGE,
/// EF.CardSecurity (parsed strictly; verified only against a configured CSCA), Terminal Authentication with the server's signature and
/// Chip Authentication with its ephemeral key inside PACE secure messaging, then the server's
/// APDUs over the plain channel, unchanged (the server protects them with the CA keys).
public final class EIDAuthCardSession: AuthCard, PINPadCard {
    /// The PIN card: PACE and its channel, which the EAC steps run in.
    let pin: PACEChannelCard
    /// The CSCA EF.CardSecurity must chain to (`eid auth --csca`); nil: the file is parsed, not
    /// verified, as AusweisApp does; passive authentication is the eID server's (TR-03130).
    let csca: X509Certificate?
    /// r_PICC of EAC1, which the server's TA signature covers.
    private var challenge: [UInt8]?

    public init(channel: CardChannel, paceInfo: PACEInfo, csca: X509Certificate?) {
        self.pin = EIDCardSession(channel: channel, paceInfo: paceInfo)
        self.csca = csca
    }

    /// The session on a reader with a PIN pad.
    public init(pinPad: PINPadConnection, paceInfo: PACEInfo, csca: X509Certificate?) {
        self.pin = PINPadCardSession(connection: pinPad, paceInfo: paceInfo)
        self.csca = csca
    }

    public func establishPACEOnPINPad(
        _ password: PACEPasswordType, chat: CHAT?, certificateDescription: [UInt8]?, timeout: Double
    ) throws -> PACEOutcome {
        guard let pad = pin as? PINPadCard else { throw CardError.transportFailed("the reader has no PIN pad") }
        return try pad.establishPACEOnPINPad(
            password, chat: chat, certificateDescription: certificateDescription, timeout: timeout)
    }

    public func changePINOnPINPad(timeout: Double) throws -> StatusWord {
        guard let pad = pin as? PINPadCard else { throw CardError.transportFailed("the reader has no PIN pad") }
        return try pad.changePINOnPINPad(timeout: timeout)
    }

    public func establishPACE(_ password: PACEPasswordType, secret: Secret, chat: CHAT?) throws -> PACEOutcome {
        try pin.establishPACE(password, secret: secret, chat: chat)
    }

    public func pinRetryCounter() throws -> Int? { try pin.pinRetryCounter() }

    public func unblockPIN() throws -> StatusWord { try pin.unblockPIN() }

    public func changePIN(to newPIN: Secret) throws -> StatusWord { try pin.changePIN(to: newPIN) }

    public func didAuthenticateEAC1() throws -> EAC1CardData {
        guard let secure = pin.eacChannel, let pace = pin.paceChannelData else {
            throw CardError.statusWord(.securityStatusNotSatisfied)
        }
        let challenge = try guarded { try TerminalAuthentication(channel: secure).getChallenge() }
        let cardAccess =
            try pace.efCardAccess ?? guarded { try secure.readFile(shortFileID: EIDFile.cardAccessShortID) }
        self.challenge = challenge
        return EAC1CardData(
            challenge: challenge, idPICC: pace.idPICC, efCardAccess: cardAccess,
            certificationAuthorityReferences: pace.certificationAuthorityReferences)
    }

    public func didAuthenticateEAC2(
        chain: [CVCertificate], ephemeralKey: [UInt8], auxiliaryData: [UInt8]?, signature: [UInt8]
    ) throws -> EAC2CardData {
        guard let secure = pin.eacChannel, let pace = pin.paceChannelData, let terminal = chain.last else {
            throw CardError.statusWord(.securityStatusNotSatisfied)
        }
        let cardSecurity = try guarded { try PassiveAuthentication.readCardSecurity(secure) }
        let infos: SecurityInfos
        do { infos = try PassiveAuthentication.securityInfos(cardSecurity, csca: csca) } catch {
            throw csca == nil ? EACStepError.cardSecurityUnusable : EACStepError.cardNotGenuine
        }
        guard let selection = try? ChipAuthentication.select(from: infos) else {
            throw EACStepError.cardSecurityUnusable
        }
        // Some eID servers send x ‖ y without the 04 of the uncompressed encoding (TR-03111
        // 3.2.1); AusweisApp adds it to a key of even length, and so does eid.
        let uncompressed = ephemeralKey.count % 2 == 0 ? [0x04] + ephemeralKey : ephemeralKey
        guard let key = try? ECPoint(group: selection.publicKey.group, encoded: uncompressed) else {
            throw EACStepError.invalidEphemeralKey
        }
        guard let challenge else { throw CardError.statusWord(.conditionsOfUseNotSatisfied) }
        let cars = pace.certificationAuthorityReferences
        let ta = TerminalAuthentication(channel: secure)
        try guarded {
            try ta.importCertificates(chain, cardTrustPoints: cars)
            try ta.authenticate(
                terminal: terminal, idPICC: pace.idPICC, challenge: challenge, ephemeralKey: key,
                auxiliaryData: auxiliaryData, signer: ClosureTerminalSigner { _ in signature })
        }
        // Chip Authentication with the server's key: the client cannot check the token (the
        // server holds the ephemeral private key); it passes nonce and token on.
        let answer = try guarded {
            try ChipAuthentication(channel: secure).runWithServerKey(selection: selection, serverKey: key)
        }
        // From here the card runs secure messaging under the CA keys, which only the server has.
        pin.endSecureMessaging()
        self.challenge = nil
        return EAC2CardData(efCardSecurity: cardSecurity, nonce: answer.nonce, token: answer.token)
    }

    /// The server's APDU goes to the card byte for byte, and the card's answer back the same.
    public func transmit(_ apdu: [UInt8]) throws -> [UInt8] {
        try pin.plainChannel.transmit(encoded: apdu)
    }

    /// Runs a card step: a removed card stays a removed card; a refused EAC command, or an
    /// answer to Chip Authentication without nonce and token, is `EACStepError.refused`.
    private func guarded<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let e as SecureMessagingError {
            throw EIDCardSession.cardError(e)
        } catch is TerminalAuthenticationError {
            throw EACStepError.refused
        } catch let e as ChipAuthenticationError {
            if case .refused = e { throw EACStepError.refused }
            if case .malformedResponse = e { throw EACStepError.refused }
            throw EACStepError.cardNotGenuine
        }
    }
}
