import CardAccess
import EAC
import SDK

/// Reads what a reader listing shows of a card, without PACE and in two APDUs: EF.CardAccess
/// (READ BINARY with short file id 1C) tells whether it is an eID card and which PACE protocol
/// it speaks; MSE:Set AT for PACE with the PIN tells the PIN state by its status word
/// (BSI TR-03110-3, B.11.1 and TR-03105-5.1): 9000 three attempts, 63C2 two, 63C1 one (the PIN
/// is suspended: CAN first), 63C0 none (blocked: PUK needed), 6283 eID function deactivated.
public enum EIDCardState {
    /// The state of the card behind `channel`. A card that answers anything but a readable
    /// EF.CardAccess with a PACEInfo is `.unknown`; a removed card throws `CardError.cardRemoved`.
    public static func read(_ channel: CardChannel) throws -> CardPresence {
        guard let info = try paceInfo(channel) else { return .unknown }
        let command = PACECommand.setAuthenticationTemplate(protocol: info.protocol, passwordType: .pin)
        return presence(forMSEStatus: try channel.transmit(command).statusWord)
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

    /// The card state a status word of MSE:Set AT (PIN) stands for.
    public static func presence(forMSEStatus sw: StatusWord) -> CardPresence {
        if sw.isSuccess { return .eID(CardInfo(retryCounter: 3)) }
        // A deactivated card does not tell its counter; -1 says "unknown", as AusweisApp does.
        if sw == .deactivated { return .eID(CardInfo(deactivated: true, retryCounter: -1)) }
        if let n = sw.retryCounter, n <= 3 { return .eID(CardInfo(retryCounter: n)) }
        return .unknown
    }
}
