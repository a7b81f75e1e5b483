import EAC
import SmartCard

/// MSE (22). Phase 1 knows Set AT for PACE (P1P2 C1 A4); Set AT for TA (81 A4) and CA (41 A4)
/// come with those protocols. Other P1P2 → 6A86.
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
        // Other P1P2 (Set AT for TA and CA, later) → 6A86 from the template's reader.
        let template = try PACEAuthenticationTemplate(
            command: command, offeredProtocols: supportedPACEProtocols.compactMap { try? OID(derValue: $0) })
        context.session.paceTemplate = template
        context.session.protocolState[PACERun.key] = nil  // a new PACE starts at step 1
        return ResponseAPDU(statusWord: context.passwords.mseOutcome(for: template.password).statusWord)
    }
}
