import EAC
import SmartCard

/// The PIN operations of one card session on an eID card: PACE with PIN, CAN or PUK over the
/// plain channel (or, after the CAN, inside its secure messaging), and RESET RETRY COUNTER
/// inside the channel PACE established, as AusweisApp does on a basic reader
/// (TR-03110-2, 3.5; CardConnectionWorker::setEidPin). The authentication's card session
/// (`EIDAuthCardSession`) runs its EAC steps in the channel this one established.
public final class EIDCardSession: PINManagementCard {
    let channel: CardChannel
    let paceInfo: PACEInfo
    private var secure: SecureMessaging?
    /// What the last PACE established (ID_PICC, the card's CARs); nil after a failed one.
    private(set) var paceResult: PACEResult?

    public init(channel: CardChannel, paceInfo: PACEInfo) {
        self.channel = channel
        self.paceInfo = paceInfo
    }

    deinit { secure?.close() }

    /// The secure messaging PACE established, while it is open.
    var secureMessaging: SecureMessaging? { secure.flatMap { $0.isClosed ? nil : $0 } }

    /// Ends the client's secure messaging (after Chip Authentication the card runs it under keys
    /// only the eID server has).
    func endSecureMessaging() {
        secure?.close()
        secure = nil
    }

    public func establishPACE(_ password: PACEPasswordType, secret: Secret, chat: CHAT? = nil) throws -> PACEOutcome {
        let pacePassword = PACEPassword(type: password, secret: secret)
        // PACE with the PIN after the CAN runs inside the CAN's secure messaging.
        let over: CardChannel = secureMessaging ?? channel
        do {
            let pace = try PACE(channel: over, paceInfo: paceInfo, password: pacePassword, chat: chat?.encoded)
            let (result, established) = try pace.establishSecureMessaging()
            secure = established
            paceResult = result
            return .established
        } catch let error as PACEError {
            // The card's secure messaging ends with a failed PACE; the next one starts plain.
            secure?.close()
            secure = nil
            paceResult = nil
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
            throw Self.cardError(error)
        }
    }

    public func pinRetryCounter() throws -> Int? {
        // A plain command: the card's secure messaging (if any) ends here, as after any failed PACE.
        secure?.close()
        secure = nil
        return try EIDCardState.pinOutcome(channel, paceInfo: paceInfo).pinRetryCounter
    }

    public func changePIN(to newPIN: Secret) throws -> StatusWord {
        // The command holds the new PIN in a buffer of its own (nothing else shares it), zeroed
        // in place once the protected command has been sent.
        var command = try CommandAPDU.resetRetryCounter(change: newPIN.copyBytes())
        defer { command.zeroData() }
        return try resetRetryCounter(command)
    }

    public func unblockPIN() throws -> StatusWord {
        try resetRetryCounter(try .resetRetryCounter(unblock: .pin))
    }

    private func resetRetryCounter(_ command: CommandAPDU) throws -> StatusWord {
        guard let secure, !secure.isClosed else { throw CardError.statusWord(.securityStatusNotSatisfied) }
        do {
            return try secure.transmit(command).statusWord
        } catch let error as SecureMessagingError {
            throw Self.cardError(error)
        }
    }

    /// A removed card stays a removed card; any other secure messaging failure is a transport
    /// failure that names it.
    static func cardError(_ error: SecureMessagingError) -> CardError {
        if case .transport(let cardError) = error { return cardError }
        if case .responseNotProtected(let sw) = error { return .statusWord(sw) }
        return .transportFailed("secure messaging failed: \(error)")
    }
}
