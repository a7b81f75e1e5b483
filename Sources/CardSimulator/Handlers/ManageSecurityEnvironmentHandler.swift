import EAC
import SmartCard

/// MSE (22): Set AT for PACE (P1P2 C1 A4), and after PACE Set DST (81 B6) and Set AT for TA
/// (81 A4) by `TerminalAuthenticationCard`'s rules and Set AT for CA (41 A4) by
/// `ChipAuthenticationCard`'s; those three need PACE in this session (else 6982). Other P1P2 → 6A86.
///
/// Set AT for PACE is read by the terminal's own type, `PACEAuthenticationTemplate(command:
/// offeredProtocols:)`, whose errors are the card's answers: no data → 6700 (AusweisApp2
/// sends exactly that, unprotected, to end a PACE channel); broken TLV, a missing, duplicate
/// or unknown data object, a CHAT without 06 and 53, an OID the card does not offer for PACE →
/// 6A80; a password reference other than 01...04 → 6A88. Then the answer is the
/// `MSESetATOutcome` of the password state (`PasswordState.mseOutcome`): for the PIN
/// deactivated (6283) when the eID function is off, 63Cx when the counter is below 3. The
/// template is remembered in the
/// session for the following General Authenticate in every case that is not an error (6Axx),
/// and a PACE run in progress is abandoned.
struct ManageSecurityEnvironmentHandler: CardCommandHandler {
    let instruction: UInt8 = 0x22
    /// The PACE protocols the card implements (OID content bytes).
    let supportedPACEProtocols: [[UInt8]]

    func handle(_ command: CommandAPDU, context: inout CardContext) throws -> ResponseAPDU {
        switch (command.p1, command.p2) {
        case (0x81, 0xB6), (0x81, 0xA4), (0x41, 0xA4):
            try context.requirePACE()
            if command.p1 == 0x41 {
                try context.chipAuthentication.setAuthenticationTemplate(data: command.data)
                context.session.protocolState[ChipAuthenticationHandler.stateKey] = true
            } else if command.p2 == 0xB6 {
                try context.withTerminalAuthentication { try $0.setDST(data: command.data) }
            } else {
                let chat = context.session.paceCHAT
                try context.withTerminalAuthentication {
                    try $0.setAuthenticationTemplate(data: command.data, paceCHAT: chat)
                }
            }
            return ResponseAPDU(statusWord: .success)
        default: break
        }
        // Other P1P2 → 6A86 from the template's reader.
        context.session.protocolState[ChipAuthenticationHandler.stateKey] = nil
        let template = try PACEAuthenticationTemplate(
            command: command, offeredProtocols: supportedPACEProtocols.compactMap { try? OID(derValue: $0) })
        context.session.paceTemplate = template
        context.session.protocolState[PACERun.key] = nil  // a new PACE starts at step 1
        return ResponseAPDU(statusWord: context.passwords.mseOutcome(for: template.password).statusWord)
    }
}
