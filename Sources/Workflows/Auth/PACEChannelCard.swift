import EAC
import SmartCard

/// A card session after PACE, as the authentication's EAC steps need it: the channel they run
/// in and what PACE told. eid's own PACE (`EIDCardSession`) gives its secure messaging and its
/// `PACEResult`; a reader with a PIN pad (`PINPadCardSession`) gives its connection, which it
/// protects itself, and the OutputData's IDicc, CARs and EF.CardAccess.
protocol PACEChannelCard: PINManagementCard {
    /// Where EAC commands go while PACE's channel is open; nil when none is.
    var eacChannel: CardChannel? { get }
    /// What PACE told; nil when no PACE is established.
    var paceChannelData: PACEChannelData? { get }
    /// The channel the eID server's own protected APDUs go through, unchanged.
    var plainChannel: CardChannel { get }
    /// Ends the client's secure messaging after Chip Authentication.
    func endSecureMessaging()
}

/// What PACE told that EAC needs.
struct PACEChannelData {
    var idPICC: [UInt8]
    /// CAR 1 and CAR 2: the CVCAs the card trusts.
    var certificationAuthorityReferences: [String]
    /// EF.CardAccess when PACE handed it over (a PIN-pad reader's OutputData); nil: read it.
    var efCardAccess: [UInt8]?
}

extension EIDCardSession: PACEChannelCard {
    var eacChannel: CardChannel? { secureMessaging }
    var plainChannel: CardChannel { channel }
    var paceChannelData: PACEChannelData? {
        paceResult.map {
            PACEChannelData(
                idPICC: $0.idPICC,
                certificationAuthorityReferences: [$0.mostRecentCAR, $0.previousCAR].compactMap { $0 },
                efCardAccess: nil)
        }
    }
}

extension PINPadCardSession: PACEChannelCard {
    var eacChannel: CardChannel? { established == nil ? nil : connection }
    var plainChannel: CardChannel { connection }
    var paceChannelData: PACEChannelData? {
        established.map {
            PACEChannelData(
                idPICC: $0.idICC, certificationAuthorityReferences: [$0.currentCAR, $0.previousCAR].compactMap { $0 },
                efCardAccess: $0.efCardAccess.isEmpty ? nil : $0.efCardAccess)
        }
    }
    /// The reader ends its secure messaging itself, at the first command that comes protected
    /// (the eID server's); nothing more goes through the reader's channel from eid.
    func endSecureMessaging() { forgetChannel() }
}
