import EAC
import SDK
import SmartCard

/// Reads what a reader listing shows of a card, without PACE and in two APDUs: EF.CardAccess
/// (READ BINARY with short file id 1C) tells whether it is an eID card and which PACE protocol
/// it speaks; MSE:Set AT for PACE with the PIN tells the PIN state by its outcome
/// (`MSESetATOutcome`, whose table says what each status word means).
public enum EIDCardState {
    /// The state of the card behind `channel`. A card that answers anything but a readable
    /// EF.CardAccess with a PACEInfo is `.unknown`; a removed card throws `CardError.cardRemoved`.
    public static func read(_ channel: CardChannel) throws -> CardPresence {
        guard let info = try paceInfo(channel) else { return .unknown }
        return presence(for: try pinOutcome(channel, paceInfo: info))
    }

    /// The outcome of MSE:Set AT for PACE with the PIN: the PIN's state without PACE.
    public static func pinOutcome(_ channel: CardChannel, paceInfo: PACEInfo) throws -> MSESetATOutcome {
        let command = try CommandAPDU.mseSetAT(pace: paceInfo.protocol, password: .pin)
        return MSESetATOutcome(statusWord: try channel.transmit(command).statusWord)
    }

    /// The PACEInfo of the card's EF.CardAccess that eid can run (the first one,
    /// `SecurityInfos.runnablePACEInfo()`), or nil when the card has no readable EF.CardAccess
    /// with a PACEInfo eid can run.
    public static func paceInfo(_ channel: CardChannel) throws -> PACEInfo? {
        let content: [UInt8]
        do {
            content = try channel.readFile(shortFileID: EIDFile.cardAccessShortID)
        } catch CardError.statusWord, CardError.malformedResponse {
            return nil
        }
        guard let infos = try? SecurityInfos(efCardAccess: content) else { return nil }
        return try? infos.runnablePACEInfo()
    }

    /// The card state an outcome of MSE:Set AT (PIN) stands for.
    public static func presence(for outcome: MSESetATOutcome) -> CardPresence {
        // A deactivated card does not tell its counter; -1 says "unknown", as AusweisApp does.
        if outcome == .deactivated { return .eID(CardInfo(deactivated: true, retryCounter: -1)) }
        guard let n = outcome.pinRetryCounter else { return .unknown }
        return .eID(CardInfo(retryCounter: n))
    }
}
