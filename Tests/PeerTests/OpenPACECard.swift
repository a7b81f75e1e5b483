import COpenPACE
import OpenPACEPeer
import SmartCard

/// The card (PICC) side of PACE and secure messaging, computed entirely by OpenPACE: a
/// `CardChannel` that reads eid's MSE:Set AT and General Authenticate commands, answers them
/// with OpenPACE's PACE steps, and afterwards unwraps and wraps secure messaging with
/// OpenPACE's primitives (`OpenPACESecureMessaging`).
///
/// It holds one password (type PIN by default) with a retry counter, and one transparent
/// file that READ BINARY returns and UPDATE BINARY replaces. OpenPACE failures never crash:
/// they become status words (6A80 for bad data, 6F00 otherwise) and end the PACE run.
final class OpenPACECard: CardChannel {
    let supportsExtendedLength = true

    /// brainpoolP256r1 with ECDH-GM-AES-128 (id-PACE-ECDH-GM-AES-CBC-CMAC-128, parameter 13).
    static let brainpoolP256r1PACEInfo: [UInt8] = [
        0x31, 0x14, 0x30, 0x12, 0x06, 0x0A, 0x04, 0x00, 0x7F, 0x00, 0x07, 0x02, 0x02, 0x04, 0x02, 0x02,
        0x02, 0x01, 0x02, 0x02, 0x01, 0x0D,
    ]

    /// EF.CardAccess with one PACEInfo: `protocolLastArc` is the cipher arc of
    /// id-PACE-ECDH-GM (2 AES-128, 3 AES-192, 4 AES-256), `parameterID` the standardized curve.
    static func cardAccess(cipherArc: UInt8, parameterID: UInt8) -> [UInt8] {
        let oid: [UInt8] = [0x04, 0x00, 0x7F, 0x00, 0x07, 0x02, 0x02, 0x04, 0x02, cipherArc]
        let info =
            PeerTLV(tag: 0x06, value: oid).encoded + PeerTLV(tag: 0x02, value: [2]).encoded
            + PeerTLV(tag: 0x02, value: [parameterID]).encoded
        return PeerTLV(tag: 0x31, value: PeerTLV(tag: 0x30, value: info).encoded).encoded
    }

    enum State: Equatable { case idle, passwordSelected, nonceSent, generatorMapped, keysAgreed, secureMessaging }

    private let ctx: UnsafeMutablePointer<EAC_CTX>
    private let secret: UnsafeMutablePointer<PACE_SEC>
    private let passwordReference: UInt8
    /// The content bytes of the PACE protocol OID OpenPACE chose from EF.CardAccess.
    let protocolOID: [UInt8]

    private(set) var state = State.idle
    private(set) var retries = 3
    private var terminalEphemeralKey: [UInt8] = []

    /// Every response the card gave, plain (before secure messaging wrapping).
    private(set) var plainResponses: [ResponseAPDU] = []
    /// The commands the card received inside secure messaging, as OpenPACE unwrapped them.
    private(set) var unwrappedCommands: [CommandAPDU] = []
    /// The transparent file for READ BINARY / UPDATE BINARY.
    var file: [UInt8] = Array(0..<64).map { UInt8($0) }

    // Faults, to prove the terminal checks what it must.
    /// Flip one bit of the card's authentication token T_PICC before sending it.
    var corruptChipToken = false
    /// Flip one bit of the MAC of the next protected response.
    var corruptNextResponseMAC = false

    /// A card from `cardAccess` (OpenPACE picks the PACEInfo) with password `password` of
    /// OpenPACE type `type` (PACE_PIN, PACE_CAN, ...) and MSE:Set AT key reference `reference`.
    init(
        cardAccess: [UInt8] = OpenPACECard.brainpoolP256r1PACEInfo, password: String = "123456",
        type: s_type = PACE_PIN, reference: UInt8 = 3
    ) throws {
        OpenPACE.initialize()
        guard let ctx = EAC_CTX_new() else { throw OpenPACE.Failure(function: "EAC_CTX_new") }
        let initialized = cardAccess.withUnsafeBufferPointer {
            EAC_CTX_init_ef_cardaccess($0.baseAddress, $0.count, ctx)
        }
        guard initialized == 1 else {
            EAC_CTX_clear_free(ctx)
            ERR_clear_error()
            throw OpenPACE.Failure(function: "EAC_CTX_init_ef_cardaccess")
        }
        let digits = Array(password.utf8)
        let made = digits.withUnsafeBufferPointer {
            $0.withMemoryRebound(to: CChar.self) { PACE_SEC_new($0.baseAddress, $0.count, type) }
        }
        guard let secret = made else {
            EAC_CTX_clear_free(ctx)
            ERR_clear_error()
            throw OpenPACE.Failure(function: "PACE_SEC_new")
        }
        guard let oid = OpenPACE.objectIdentifierContent(nid: eid_pace_protocol(ctx)) else {
            EAC_CTX_clear_free(ctx)
            PACE_SEC_clear_free(secret)
            throw OpenPACE.Failure(function: "EAC_OBJ_nid2obj")
        }
        self.ctx = ctx
        self.secret = secret
        self.passwordReference = reference
        self.protocolOID = oid
    }

    deinit {
        EAC_CTX_clear_free(ctx)
        PACE_SEC_clear_free(secret)
    }

    /// KSenc and KSmac as OpenPACE derived them (PACE step 3C), nil before.
    var sessionKeys: (encryption: [UInt8], mac: [UInt8])? { OpenPACE.sessionKeys(ctx) }

    /// OpenPACE's send sequence counter (16 bytes), nil if it cannot be read.
    var ssc: [UInt8]? {
        var out = [UInt8](repeating: 0, count: 16)
        guard eid_eac_ssc(ctx, &out, 16) == 1 else { return nil }
        return out
    }

    func transmit(_ command: CommandAPDU) throws -> ResponseAPDU {
        if command.cla & 0x0C == 0x0C {
            return secureMessaging(command)
        }
        // A plain command ends secure messaging, as on the eID card.
        if state == .secureMessaging { state = .idle }
        let response = process(command)
        plainResponses.append(response)
        return response
    }

    // MARK: PACE

    private func process(_ command: CommandAPDU) -> ResponseAPDU {
        switch (command.ins, command.p1, command.p2) {
        case (0x22, 0xC1, 0xA4): return setAuthenticationTemplate(command)
        case (0x86, 0x00, 0x00): return generalAuthenticate(command)
        case (0xB0, _, _), (0xD6, _, _): return ResponseAPDU(statusWord: .securityStatusNotSatisfied)
        default: return ResponseAPDU(statusWord: .instructionNotSupported)
        }
    }

    private func setAuthenticationTemplate(_ command: CommandAPDU) -> ResponseAPDU {
        state = .idle
        guard let objects = try? PeerTLV.parseAll(command.data),
            objects.first(where: { $0.tag == 0x80 })?.value == protocolOID,
            objects.first(where: { $0.tag == 0x83 })?.value == [passwordReference]
        else { return ResponseAPDU(statusWord: .referenceDataNotFound) }
        guard retries > 0 else { return ResponseAPDU(statusWord: .authenticationMethodBlocked) }
        state = .passwordSelected
        return ResponseAPDU(statusWord: retries < 3 ? .retriesLeft(retries) : .success)
    }

    private func generalAuthenticate(_ command: CommandAPDU) -> ResponseAPDU {
        guard let outer = try? PeerTLV.parseAll(command.data), outer.count == 1, outer[0].tag == 0x7C,
            let objects = try? PeerTLV.parseAll(outer[0].value)
        else {
            state = .idle
            return ResponseAPDU(statusWord: .wrongData)
        }
        let isLast = command.cla & 0x10 == 0
        func value(_ tag: UInt32) -> [UInt8]? {
            objects.count == 1 && objects[0].tag == tag ? objects[0].value : nil
        }
        let result: Result<PeerTLV, PACEFailure>
        switch state {
        case .passwordSelected where objects.isEmpty && !isLast:
            result = step1()
        case .nonceSent where !isLast:
            result = value(0x81).map(step2) ?? .failure(.wrongData)
        case .generatorMapped where !isLast:
            result = value(0x83).map(step3) ?? .failure(.wrongData)
        case .keysAgreed where isLast:
            result = value(0x85).map(step4) ?? .failure(.wrongData)
        default:
            result = .failure(.conditions)
        }
        switch result {
        case .success(let object):
            return ResponseAPDU(data: PeerTLV(tag: 0x7C, value: object.encoded).encoded, statusWord: .success)
        case .failure(let failure):
            state = .idle
            ERR_clear_error()
            switch failure {
            case .wrongData: return ResponseAPDU(statusWord: .wrongData)
            case .conditions: return ResponseAPDU(statusWord: .conditionsOfUseNotSatisfied)
            case .openPACE: return ResponseAPDU(statusWord: .noPreciseDiagnosis)
            case .wrongToken(let left): return ResponseAPDU(statusWord: .retriesLeft(left))
            }
        }
    }

    private enum PACEFailure: Error {
        case wrongData, conditions, openPACE
        case wrongToken(Int)
    }

    /// Step 1: a random nonce s, encrypted with K_pi.
    private func step1() -> Result<PeerTLV, PACEFailure> {
        guard let z = OpenPACE.take(PACE_STEP1_enc_nonce(ctx, secret)) else { return .failure(.openPACE) }
        state = .nonceSent
        return .success(PeerTLV(tag: 0x80, value: z))
    }

    /// Step 2: the card's mapping key, and the generator mapped with the terminal's.
    private func step2(_ terminalMapping: [UInt8]) -> Result<PeerTLV, PACEFailure> {
        guard let chipMapping = OpenPACE.take(PACE_STEP3A_generate_mapping_data(ctx)) else {
            return .failure(.openPACE)
        }
        let mapped = try? OpenPACE.withBuffer(terminalMapping) { PACE_STEP3A_map_generator(ctx, $0) }
        guard mapped == 1 else { return .failure(.wrongData) }
        state = .generatorMapped
        return .success(PeerTLV(tag: 0x82, value: chipMapping))
    }

    /// Step 3: the card's ephemeral key on the mapped generator, the shared secret, KSenc and KSmac.
    private func step3(_ terminalKey: [UInt8]) -> Result<PeerTLV, PACEFailure> {
        guard let chipKey = OpenPACE.take(PACE_STEP3B_generate_ephemeral_key(ctx)) else {
            return .failure(.openPACE)
        }
        let agreed = try? OpenPACE.withBuffer(terminalKey) { PACE_STEP3B_compute_shared_secret(ctx, $0) }
        guard agreed == 1 else { return .failure(.wrongData) }
        guard PACE_STEP3C_derive_keys(ctx) == 1 else { return .failure(.openPACE) }
        terminalEphemeralKey = terminalKey
        state = .keysAgreed
        return .success(PeerTLV(tag: 0x84, value: chipKey))
    }

    /// Step 4: verify T_PCD; only if it is right, answer T_PICC and start secure messaging.
    private func step4(_ terminalToken: [UInt8]) -> Result<PeerTLV, PACEFailure> {
        let verified = try? OpenPACE.withBuffer(terminalToken) { PACE_STEP3D_verify_authentication_token(ctx, $0) }
        guard verified == 1 else {
            retries -= 1
            return .failure(.wrongToken(retries))
        }
        let token = try? OpenPACE.withBuffer(terminalEphemeralKey) {
            OpenPACE.take(PACE_STEP3D_compute_authentication_token(ctx, $0))
        }
        guard var chipToken = token ?? nil else { return .failure(.openPACE) }
        guard EAC_CTX_set_encryption_ctx(ctx, eid_eac_id_pace()) == 1, EAC_reset_ssc(ctx) == 1 else {
            return .failure(.openPACE)
        }
        if corruptChipToken, !chipToken.isEmpty { chipToken[chipToken.count - 1] ^= 0x01 }
        retries = 3
        state = .secureMessaging
        return .success(PeerTLV(tag: 0x86, value: chipToken))
    }

    // MARK: secure messaging, card side, with OpenPACE's primitives

    /// Unwraps with OpenPACE, runs the plain command, wraps the answer with OpenPACE. A command
    /// that fails verification ends secure messaging and is answered 6988 unprotected.
    private func secureMessaging(_ command: CommandAPDU) -> ResponseAPDU {
        guard state == .secureMessaging else { return ResponseAPDU(statusWord: .smDataObjectsMissing) }
        let sm = OpenPACESecureMessaging(ctx: ctx)
        guard let plain = try? sm.unprotect(command) else {
            state = .idle
            ERR_clear_error()
            return ResponseAPDU(statusWord: .smDataObjectsIncorrect)
        }
        unwrappedCommands.append(plain)
        let response = handleProtected(plain)
        plainResponses.append(response)
        let corrupt = corruptNextResponseMAC
        corruptNextResponseMAC = false
        guard let wrapped = try? sm.protect(response, corruptMAC: corrupt) else {
            state = .idle
            ERR_clear_error()
            return ResponseAPDU(statusWord: .noPreciseDiagnosis)
        }
        return wrapped
    }

    private func handleProtected(_ command: CommandAPDU) -> ResponseAPDU {
        switch command.ins {
        case 0xB0:
            let offset = Int(command.p1 & 0x7F) << 8 | Int(command.p2)
            guard offset <= file.count else { return ResponseAPDU(statusWord: .wrongParametersP1P2) }
            let count = min(command.ne ?? 0, file.count - offset)
            return ResponseAPDU(data: Array(file[offset..<offset + count]), statusWord: .success)
        case 0xD6:
            file = command.data
            return ResponseAPDU(statusWord: .success)
        default:
            return ResponseAPDU(statusWord: .instructionNotSupported)
        }
    }
}
