import EAC
import EIDCrypto
import SmartCard

/// GENERAL AUTHENTICATE (86) for PACE: the chip's side (BSI TR-03110-2, 3.2; TR-03110-3, B.1
/// and D.3; ICAO 9303-11, 4.4) of the protocol and password that MSE:Set AT chose, with ECDH
/// generic mapping. Every command carries a '7C' template; P1P2 00 00 (else 6A86).
///
/// 1. 7C{} → 7C{80 z}: first the password rules (`PasswordState.refusal`); a refused password
///    ends the run here with the refusal's status word, as the card answers it instead of a
///    nonce: 63C1 for the suspended PIN without PACE with the CAN in this card session, 6983
///    for the blocked PIN, 6A88 for the MRZ (this card has none). (An inoperative PUK is not
///    refused here: the unblock refuses it.)
///    Otherwise a fresh random nonce s, z = E(K_π, s) with K_π from the stored password.
/// 2. 7C{81 PK_PCD,map} → 7C{82 PK_PICC,map}; both sides map G~ = s · G + H.
/// 3. 7C{83 PK_PCD} → 7C{84 PK_PICC} on G~; a terminal key equal to the card's is rejected.
/// 4. 7C{85 T_PCD} → 7C{86 T_PICC [87 CAR1 [88 CAR2]]}: a wrong T_PCD means the password was
///    wrong (`recordAttempt(succeeded: false)`: 63Cx with the PIN's decreased counter, 6300 for
///    CAN and PUK). A right one counts as a correct password (PIN counter back to 3), sets
///    `authenticatedPassword` (and `canVerified` for the CAN) and installs secure messaging
///    with the session keys and SSC 0 *after* this response: it goes out unprotected, or under
///    the old session when PACE ran inside secure messaging (PACE with the PIN inside the CAN
///    session), whose keys the new ones then replace. The CARs (TR-03110-3, D.3: required
///    when MSE:Set AT carried a CHAT, i.e. Terminal Authentication follows) come only then.
///
/// Steps 1-3 must carry the chaining bit (CLA 10) and step 4 must not. A step out of order,
/// without MSE:Set AT, or unchained before step 4 → 6985; a chained step 4 → 6883. A '7C'
/// that does not parse, holds other objects than the step's one, or a point that is not on
/// the curve (or yields an unusable generator or shared secret) → 6A80. Every error ends the
/// run: the terminal starts again with MSE:Set AT and step 1.
struct PACEHandler: CardCommandHandler {
    typealias Tag = DynamicAuthenticationData.Tag

    let instruction: UInt8 = 0x86
    var acceptsChaining: Bool { true }

    /// The only domain parameters the card offers (EF.CardAccess): brainpoolP256r1.
    var domainParameterID = SimulatorSecurityInfos.brainpoolP256r1ParameterID
    /// Where the card's ephemeral private keys come from (random; tests may fix them).
    var privateKey: @Sendable (PACEKeyPurpose, ECGroup) throws -> ECPrivateKey = { _, group in
        try ECPrivateKey(randomIn: group)
    }

    func handle(_ command: CommandAPDU, context: inout CardContext) throws -> ResponseAPDU {
        // Whatever happens below, a run continues only when a step succeeds and stores it again.
        let run = context.session.protocolState.removeValue(forKey: PACERun.key) as? PACERun
        guard command.p1 == 0x00 && command.p2 == 0x00 else { throw CardError.statusWord(.incorrectParameters) }
        guard let data = try? DynamicAuthenticationData(bytes: command.data) else {
            throw CardError.statusWord(.wrongData)
        }
        let step = try PACEHandler.step(of: data)
        guard step == (run?.nextStep ?? 1) else { throw CardError.statusWord(.conditionsOfUseNotSatisfied) }
        guard command.isChained == (step < 4) else {
            throw CardError.statusWord(step == 4 ? StatusWord(rawValue: 0x6883) : .conditionsOfUseNotSatisfied)
        }
        // The step matches the stage, and the template holds exactly the step's data object.
        let value = data.objects.first?.value ?? []
        guard let run else { return try nonce(context: &context) }
        switch run.stage {
        case .nonceSent(let nonce):
            return try map(value, nonce: nonce, run: run, context: &context)
        case .mapped(let generator):
            return try agree(value, generator: generator, run: run, context: &context)
        case .keyAgreed(let ephemeralKey, let terminalKey, let keys):
            return try authenticate(
                token: value, ephemeralKey: ephemeralKey, terminalKey: terminalKey, keys: keys, run: run,
                context: &context)
        }
    }

    /// The step a '7C' template is for: empty → 1, one 81 → 2, one 83 → 3, one 85 → 4.
    static func step(of data: DynamicAuthenticationData) throws -> Int {
        let tags = data.objects.map(\.tag)
        switch tags {
        case []: return 1
        case [Tag.terminalMappingData]: return 2
        case [Tag.terminalEphemeralPublicKey]: return 3
        case [Tag.terminalToken]: return 4
        default: throw CardError.statusWord(.wrongData)
        }
    }

    // MARK: the steps

    private func nonce(context: inout CardContext) throws -> ResponseAPDU {
        guard let template = context.session.paceTemplate else {
            throw CardError.statusWord(.conditionsOfUseNotSatisfied)
        }
        if let refusal = context.passwords.refusal(
            of: template.password, canVerifiedInSession: context.session.canVerified)
        {
            throw CardError.statusWord(refusal.statusWord)
        }
        guard template.domainParameterID == nil || template.domainParameterID == [UInt8(domainParameterID)],
            let proto = PACEProtocol(oid: template.protocol),
            let steps = try? PACESteps(protocol: proto, domainParameterID: domainParameterID)
        else { throw CardError.statusWord(.wrongData) }
        guard let password = PACEHandler.password(template.password, in: context.passwords) else {
            throw CardError.statusWord(.referenceDataNotFound)
        }
        var nonce = try steps.randomNonce()
        var passwordKey = try steps.passwordKey(password)
        defer { Secret.zero(&passwordKey) }
        let encrypted = try steps.encryptNonce(nonce, passwordKey: passwordKey)
        // The run keeps s in zeroing storage until step 2 (or the run's end) drops it.
        context.session.protocolState[PACERun.key] = PACERun(
            steps: steps, password: template.password, hasCHAT: template.chat != nil,
            chat: template.chat.flatMap { try? CHAT(encoded: $0) }, stage: .nonceSent(nonce: Secret(consuming: &nonce)))
        return PACEHandler.answer([TLV(tag: Tag.encryptedNonce, value: encrypted)])
    }

    private func map(
        _ terminalMappingData: [UInt8], nonce: Secret, run: PACERun, context: inout CardContext
    ) throws -> ResponseAPDU {
        let steps = run.steps
        let terminalKey = try PACEHandler.terminalData { try steps.publicKey(terminalMappingData) }
        let mappingKey = try steps.mappingKeyPair(try privateKey(.mapping, steps.group))
        let generator = try PACEHandler.terminalData {
            try nonce.withBytes {
                try steps.mapGenerator(nonce: $0, mappingKey: mappingKey, peerMappingKey: terminalKey)
            }
        }
        nonce.wipe()
        var next = run
        next.stage = .mapped(generator: generator)
        context.session.protocolState[PACERun.key] = next
        return PACEHandler.answer([TLV(tag: Tag.chipMappingData, value: mappingKey.publicKey.encoded)])
    }

    private func agree(
        _ terminalEphemeralKey: [UInt8], generator: ECPoint, run: PACERun, context: inout CardContext
    ) throws -> ResponseAPDU {
        let steps = run.steps
        let terminalKey = try PACEHandler.terminalData {
            try steps.publicKey(terminalEphemeralKey)
        }
        let ephemeralKey = try steps.ephemeralKeyPair(try privateKey(.keyAgreement, steps.group), generator: generator)
        // Rejects a terminal key equal to the card's (TR-03110-2, 3.2.1).
        var secret = try PACEHandler.terminalData {
            try steps.sharedSecret(ephemeralKey: ephemeralKey, peerEphemeralKey: terminalKey)
        }
        defer { Secret.zero(&secret) }
        var next = run
        next.stage = .keyAgreed(
            ephemeralKey: ephemeralKey, terminalKey: terminalKey, keys: try steps.sessionKeys(sharedSecret: secret))
        context.session.protocolState[PACERun.key] = next
        return PACEHandler.answer([TLV(tag: Tag.chipEphemeralPublicKey, value: ephemeralKey.publicKey.encoded)])
    }

    private func authenticate(
        token: [UInt8], ephemeralKey: ECKeyPair, terminalKey: ECPoint, keys: SessionKeys,
        run: PACERun, context: inout CardContext
    ) throws -> ResponseAPDU {
        let steps = run.steps
        let tokenIsRight = try keys.withMACKey {
            try steps.verifyAuthenticationToken(token, macKey: $0, over: ephemeralKey.publicKey)
        }
        guard tokenIsRight else {
            keys.wipe()
            throw CardError.statusWord(context.passwords.recordAttempt(run.password, succeeded: false).statusWord)
        }
        let chipToken = try keys.withMACKey { try steps.authenticationToken(macKey: $0, over: terminalKey) }
        _ = context.passwords.recordAttempt(run.password, succeeded: true)
        context.session.authenticatedPassword = run.password
        if run.password == .can { context.session.canVerified = true }
        context.session.pendingSecureMessaging = AESSecureMessaging(keys: keys)
        // A new PACE starts Terminal and Chip Authentication afresh, with the CHAT of its MSE:Set AT.
        context.session.paceCHAT = run.chat
        context.session.idPICC = ephemeralKey.publicKey.x
        context.session.eacAccess = EACAccess()
        context.session.authenticatedAuxiliaryData = nil
        context.session.protocolState[TerminalAuthenticationCard.stateKey] = nil
        context.session.protocolState[ChipAuthenticationHandler.stateKey] = nil
        var objects = [TLV(tag: Tag.chipToken, value: chipToken)]
        if run.hasCHAT {
            let tags = [Tag.certificationAuthorityReference1, Tag.certificationAuthorityReference2]
            let anchors = TerminalAuthenticationCard(
                trustAnchors: context.trustAnchors, currentDate: context.currentDate
            )
            .trustPointReferences
            // CAR 1 (87) and CAR 2 (88): the CVCAs the card trusts, the current one first.
            for (tag, car) in zip(tags, anchors) {
                objects.append(TLV(tag: tag, value: Array(car.utf8)))
            }
        }
        return PACEHandler.answer(objects)
    }

    // MARK: helpers

    /// The PACE password the card holds for `reference`, or nil when it has none (MRZ).
    static func password(_ reference: PACEPasswordType, in passwords: PasswordState) -> PACEPassword? {
        guard let secret = passwords.secret(for: reference) else { return nil }
        switch reference {
        case .mrz: return nil
        case .can: return .can(secret)
        case .pin: return .pin(secret)
        case .puk: return .puk(secret)
        }
    }

    /// Runs a computation on data the terminal sent; any failure is the terminal's: 6A80.
    static func terminalData<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch { throw CardError.statusWord(.wrongData) }
    }

    static func answer(_ objects: [TLV]) -> ResponseAPDU {
        ResponseAPDU(data: DynamicAuthenticationData(objects).bytes, statusWord: .success)
    }
}
