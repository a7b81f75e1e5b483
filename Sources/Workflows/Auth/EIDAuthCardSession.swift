import EAC
import EIDCrypto
import SmartCard

/// The authentication's card session on an eID card over a basic reader: PACE with the
/// effective CHAT over the plain channel (or the CAN's secure messaging), GET CHALLENGE,
/// EF.CardSecurity (parsed strictly; verified only against a configured CSCA), Terminal Authentication with the server's signature and
/// Chip Authentication with its ephemeral key inside PACE secure messaging, then the server's
/// APDUs over the plain channel, unchanged (the server protects them with the CA keys).
public final class EIDAuthCardSession: AuthCard {
    let channel: CardChannel
    let paceInfo: PACEInfo
    /// The CSCA EF.CardSecurity must chain to (`eid auth --csca`); nil: the file is parsed, not
    /// verified, as AusweisApp does; passive authentication is the eID server's (TR-03130).
    let csca: X509Certificate?
    private var secure: SecureMessaging?
    private var pace: PACEResult?
    /// r_PICC of EAC1, which the server's TA signature covers.
    private var challenge: [UInt8]?

    public init(channel: CardChannel, paceInfo: PACEInfo, csca: X509Certificate?) {
        self.channel = channel
        self.paceInfo = paceInfo
        self.csca = csca
    }

    deinit { secure?.close() }

    public func establishPACE(_ password: PACEPasswordType, secret: Secret, chat: CHAT) throws -> PACEOutcome {
        let over: CardChannel = secure.flatMap { $0.isClosed ? nil : $0 } ?? channel
        do {
            let run = try PACE(
                channel: over, paceInfo: paceInfo, password: PACEPassword(type: password, secret: secret),
                chat: chat.encoded)
            let (result, established) = try run.establishSecureMessaging()
            secure = established
            pace = result
            return .established
        } catch let error as PACEError {
            secure?.close()
            secure = nil
            pace = nil
            switch error {
            case .generalAuthenticateFailed(_, let sw) where PACEPasswordRefusal(statusWord: sw) != nil:
                return .wrongPassword(sw)
            case .setAuthenticationTemplateFailed(let sw), .generalAuthenticateFailed(_, let sw):
                throw CardError.statusWord(sw)
            default:
                throw CardError.malformedResponse(error.description)
            }
        } catch let error as SecureMessagingError {
            secure = nil
            throw EIDCardSession.cardError(error)
        }
    }

    public func pinRetryCounter() throws -> Int? {
        secure?.close()
        secure = nil
        return try EIDCardState.pinOutcome(channel, paceInfo: paceInfo).pinRetryCounter
    }

    public func unblockPIN() throws -> StatusWord {
        guard let secure, !secure.isClosed else { throw CardError.statusWord(.securityStatusNotSatisfied) }
        do { return try secure.transmit(.resetRetryCounter(unblock: .pin)).statusWord } catch let e
            as SecureMessagingError
        {
            throw EIDCardSession.cardError(e)
        }
    }

    public func didAuthenticateEAC1() throws -> EAC1CardData {
        guard let secure, !secure.isClosed, let pace else { throw CardError.statusWord(.securityStatusNotSatisfied) }
        let challenge = try guarded { try TerminalAuthentication(channel: secure).getChallenge() }
        let cardAccess = try guarded { try secure.readFile(shortFileID: EIDFile.cardAccessShortID) }
        self.challenge = challenge
        return EAC1CardData(
            challenge: challenge, idPICC: pace.idPICC, efCardAccess: cardAccess,
            certificationAuthorityReferences: [pace.mostRecentCAR, pace.previousCAR].compactMap { $0 })
    }

    public func didAuthenticateEAC2(
        chain: [CVCertificate], ephemeralKey: [UInt8], auxiliaryData: [UInt8]?, signature: [UInt8]
    ) throws -> EAC2CardData {
        guard let secure, !secure.isClosed, let pace, let terminal = chain.last else {
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
        let cars = [pace.mostRecentCAR, pace.previousCAR].compactMap { $0 }
        let ta = TerminalAuthentication(channel: secure)
        try guarded {
            try ta.importCertificates(chain, cardTrustPoints: cars)
            try ta.authenticate(
                terminal: terminal, idPICC: pace.idPICC, challenge: challenge, ephemeralKey: key,
                auxiliaryData: auxiliaryData, signer: ClosureTerminalSigner { _ in signature })
        }
        // Chip Authentication with the server's key: the client cannot check the token (the
        // server holds the ephemeral private key); it passes nonce and token on.
        let data: DynamicAuthenticationData = try guarded {
            guard
                try secure.transmit(.mseSetAT(chipAuthentication: selection.protocol, keyID: selection.keyID))
                    .statusWord == .success
            else { throw EACStepError.refused }
            let response = try secure.transmit(.generalAuthenticate(chipAuthentication: key))
            guard response.statusWord == .success else { throw EACStepError.refused }
            guard let data = try? DynamicAuthenticationData(bytes: response.data) else { throw EACStepError.refused }
            return data
        }
        guard let nonce = data[0x81], let token = data[0x82] else { throw EACStepError.refused }
        // From here the card runs secure messaging under the CA keys, which only the server has.
        secure.close()
        self.secure = nil
        self.challenge = nil
        return EAC2CardData(efCardSecurity: cardSecurity, nonce: nonce, token: token)
    }

    /// The server's APDU goes to the card byte for byte, and the card's answer back the same.
    public func transmit(_ apdu: [UInt8]) throws -> [UInt8] {
        try channel.transmit(encoded: apdu)
    }

    /// Runs a card step: a removed card stays a removed card; a refused EAC command is
    /// `EACStepError.refused`.
    private func guarded<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let e as SecureMessagingError {
            throw EIDCardSession.cardError(e)
        } catch is TerminalAuthenticationError {
            throw EACStepError.refused
        } catch let e as ChipAuthenticationError {
            if case .refused = e { throw EACStepError.refused }
            throw EACStepError.cardNotGenuine
        }
    }
}
