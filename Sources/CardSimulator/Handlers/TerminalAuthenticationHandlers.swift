import EAC
import SmartCard

/// PSO:Verify Certificate (2A, P1P2 00 BE): imports a CV certificate by
/// `TerminalAuthenticationCard.verifyCertificate` (6300 bad signature, 6A80 wrong certificate,
/// 6985 without MSE:Set DST). Needs PACE in this session (else 6982); other P1P2 → 6A86.
struct PerformSecurityOperationHandler: CardCommandHandler {
    let instruction: UInt8 = 0x2A

    func handle(_ command: CommandAPDU, context: inout CardContext) throws -> ResponseAPDU {
        guard command.p1 == 0x00, command.p2 == 0xBE else { throw CardError.statusWord(.incorrectParameters) }
        try context.requirePACE()
        try context.withTerminalAuthentication { try $0.verifyCertificate(bodyAndSignature: command.data) }
        return ResponseAPDU(statusWord: .success)
    }
}

/// GET CHALLENGE (84, P1P2 00 00, Le 8): r_PICC for Terminal Authentication. Needs PACE in
/// this session (else 6982); another Le → 6700.
struct GetChallengeHandler: CardCommandHandler {
    let instruction: UInt8 = 0x84

    func handle(_ command: CommandAPDU, context: inout CardContext) throws -> ResponseAPDU {
        guard command.p1 == 0x00, command.p2 == 0x00 else { throw CardError.statusWord(.incorrectParameters) }
        try context.requirePACE()
        let challenge = try context.withTerminalAuthentication { try $0.getChallenge(length: command.ne) }
        return ResponseAPDU(data: challenge, statusWord: .success)
    }
}

/// EXTERNAL AUTHENTICATE (82, P1P2 00 00): checks the terminal's signature over ID_PICC ‖
/// r_PICC ‖ Comp(PK_PCD) ‖ aux. 9000 records the effective CHAT (PACE's ∩ the chain's) and
/// `terminalAuthenticated` in `EACAccess`; 6300 (wrong signature) leaves no access at all;
/// 6985 without MSE:Set AT and GET CHALLENGE. Needs PACE in this session (else 6982).
struct ExternalAuthenticateHandler: CardCommandHandler {
    let instruction: UInt8 = 0x82
    static let outcomeKey = "TA.outcome"

    func handle(_ command: CommandAPDU, context: inout CardContext) throws -> ResponseAPDU {
        guard command.p1 == 0x00, command.p2 == 0x00 else { throw CardError.statusWord(.incorrectParameters) }
        guard context.session.authenticatedPassword != nil, let idPICC = context.session.idPICC else {
            throw CardError.statusWord(.securityStatusNotSatisfied)
        }
        let chat = context.session.paceCHAT
        context.session.eacAccess = EACAccess()
        context.session.authenticatedAuxiliaryData = nil
        context.session.protocolState[ExternalAuthenticateHandler.outcomeKey] = nil
        let outcome = try context.withTerminalAuthentication {
            try $0.externalAuthenticate(signature: command.data, idPICC: idPICC, paceCHAT: chat)
        }
        // VERIFY compares the data groups with the auxiliary data the signature covered; data that
        // does not decode cannot be verified against (VERIFY then answers 6A88).
        context.session.authenticatedAuxiliaryData = outcome.auxiliaryData.flatMap {
            try? AuthenticatedAuxiliaryData(encoded: $0)
        }
        context.session.eacAccess = EACAccess(
            effectiveCHAT: outcome.effectiveCHAT, terminalAuthenticated: true,
            pacePassword: context.session.authenticatedPassword)
        context.session.protocolState[ExternalAuthenticateHandler.outcomeKey] = outcome
        return ResponseAPDU(statusWord: .success)
    }
}
