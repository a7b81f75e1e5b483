import EAC
import SmartCard

/// GENERAL AUTHENTICATE (86) for Chip Authentication version 2, by `ChipAuthenticationCard`'s
/// rules: after MSE:Set AT for CA and a successful Terminal Authentication (else 6985), with
/// 7C { 80 PK_PCD } whose x-coordinate TA announced (else 6A80). The answer 7C { 81 r_PICC,
/// 82 T_PICC } goes out under the PACE keys; from the next command on secure messaging runs
/// with the CA keys and SSC 0, and `EACAccess.chipAuthenticated` is set.
struct ChipAuthenticationHandler: CardCommandHandler {
    /// Set (to true) in `protocolState` by MSE:Set AT for CA; GENERAL AUTHENTICATE is then CA's.
    static let stateKey = "CA"

    let instruction: UInt8 = 0x86

    func handle(_ command: CommandAPDU, context: inout CardContext) throws -> ResponseAPDU {
        context.session.protocolState[ChipAuthenticationHandler.stateKey] = nil
        guard command.p1 == 0x00, command.p2 == 0x00 else { throw CardError.statusWord(.incorrectParameters) }
        let outcome =
            context.session.protocolState[ExternalAuthenticateHandler.outcomeKey] as? TerminalAuthenticationOutcome
        let (response, keys) = try context.chipAuthentication.generalAuthenticate(
            data: command.data, announcedKey: outcome?.compressedEphemeralKey)
        context.session.pendingSecureMessaging = AESSecureMessaging(keys: keys)
        context.session.eacAccess.chipAuthenticated = true
        return ResponseAPDU(data: response, statusWord: .success)
    }
}

/// GENERAL AUTHENTICATE (86): Chip Authentication's after MSE:Set AT for CA (an unchained
/// command), PACE's otherwise.
struct GeneralAuthenticateHandler: CardCommandHandler {
    let instruction: UInt8 = 0x86
    var acceptsChaining: Bool { true }
    var pace = PACEHandler()
    var chipAuthentication = ChipAuthenticationHandler()

    func handle(_ command: CommandAPDU, context: inout CardContext) throws -> ResponseAPDU {
        if context.session.protocolState[ChipAuthenticationHandler.stateKey] != nil, !command.isChained {
            return try chipAuthentication.handle(command, context: &context)
        }
        return try pace.handle(command, context: &context)
    }
}
