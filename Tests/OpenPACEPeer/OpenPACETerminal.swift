import COpenPACE
import SmartCard

/// The terminal (PCD) side of PACE and secure messaging computed by OpenPACE, speaking APDUs
/// it builds itself (MSE:Set AT, General Authenticate with '7C') over any `CardChannel`: to run
/// OpenPACE's terminal against eid's software card.
public final class OpenPACETerminal {
    public enum Failure: Error, Equatable {
        /// The card answered step `step` (0: MSE:Set AT) with this status word.
        case refused(step: Int, StatusWord)
        /// The card's answer to step `step` lacks the data object it must carry.
        case malformed(step: Int)
        /// An OpenPACE function failed (by name).
        case openPACE(String)
        /// OpenPACE found the card's token T_PICC wrong.
        case chipTokenRejected
        /// A protected response failed OpenPACE's checks.
        case secureMessaging
    }

    public let channel: CardChannel
    public let ctx: UnsafeMutablePointer<EAC_CTX>
    /// The complete 7F4C CHAT for MSE:Set AT (PACE for Terminal Authentication), or nil.
    public var chat: [UInt8]?
    /// The card's ephemeral PACE public key (step 3), for ID_PICC.
    public private(set) var piccEphemeralKey: [UInt8] = []
    private let secret: UnsafeMutablePointer<PACE_SEC>
    private let passwordReference: UInt8
    public private(set) var isEstablished = false

    public init(channel: CardChannel, cardAccess: [UInt8], password: String, type: s_type = PACE_PIN) throws {
        OpenPACE.initialize()
        guard let ctx = EAC_CTX_new() else { throw Failure.openPACE("EAC_CTX_new") }
        let initialized = cardAccess.withUnsafeBufferPointer {
            EAC_CTX_init_ef_cardaccess($0.baseAddress, $0.count, ctx)
        }
        guard initialized == 1 else {
            EAC_CTX_clear_free(ctx)
            ERR_clear_error()
            throw Failure.openPACE("EAC_CTX_init_ef_cardaccess")
        }
        let digits = Array(password.utf8)
        let made = digits.withUnsafeBufferPointer {
            $0.withMemoryRebound(to: CChar.self) { PACE_SEC_new($0.baseAddress, $0.count, type) }
        }
        guard let secret = made else {
            EAC_CTX_clear_free(ctx)
            ERR_clear_error()
            throw Failure.openPACE("PACE_SEC_new")
        }
        self.channel = channel
        self.ctx = ctx
        self.secret = secret
        // s_type numbers the passwords as MSE:Set AT's key references do (1 MRZ ... 4 PUK).
        passwordReference = UInt8(type.rawValue)
    }

    deinit {
        EAC_CTX_clear_free(ctx)
        PACE_SEC_clear_free(secret)
    }

    /// KSenc and KSmac as OpenPACE derived them, nil before step 3.
    public var sessionKeys: (encryption: [UInt8], mac: [UInt8])? { OpenPACE.sessionKeys(ctx) }

    /// MSE:Set AT and General Authenticate 1-4; afterwards `transmitProtected` works. Returns
    /// MSE:Set AT's status word.
    @discardableResult
    public func establish() throws -> StatusWord {
        defer { ERR_clear_error() }
        isEstablished = false
        guard let oid = OpenPACE.objectIdentifierContent(nid: eid_pace_protocol(ctx)) else {
            throw Failure.openPACE("EAC_OBJ_nid2obj")
        }
        let mse = try CommandAPDU(
            ins: 0x22, p1: 0xC1, p2: 0xA4,
            data: PeerTLV(tag: 0x80, value: oid).encoded + PeerTLV(tag: 0x83, value: [passwordReference]).encoded
                + (chat ?? []))
        let setAT = try channel.transmit(mse).statusWord
        guard setAT.isSuccess || setAT.sw1 == 0x63 else { throw Failure.refused(step: 0, setAT) }

        // 1: decrypt the card's nonce with K_pi.
        let z = try exchange(step: 1, nil, expect: 0x80)
        let decrypted = try OpenPACE.withBuffer(z) { PACE_STEP2_dec_nonce(ctx, secret, $0) }
        guard decrypted == 1 else { throw Failure.openPACE("PACE_STEP2_dec_nonce") }

        // 2: generic mapping.
        guard let pcdMapping = OpenPACE.take(PACE_STEP3A_generate_mapping_data(ctx)) else {
            throw Failure.openPACE("PACE_STEP3A_generate_mapping_data")
        }
        let piccMapping = try exchange(step: 2, PeerTLV(tag: 0x81, value: pcdMapping), expect: 0x82)
        guard try OpenPACE.withBuffer(piccMapping, { PACE_STEP3A_map_generator(ctx, $0) }) == 1 else {
            throw Failure.openPACE("PACE_STEP3A_map_generator")
        }

        // 3: key agreement and KSenc / KSmac.
        guard let pcdKey = OpenPACE.take(PACE_STEP3B_generate_ephemeral_key(ctx)) else {
            throw Failure.openPACE("PACE_STEP3B_generate_ephemeral_key")
        }
        let piccKey = try exchange(step: 3, PeerTLV(tag: 0x83, value: pcdKey), expect: 0x84)
        piccEphemeralKey = piccKey
        guard try OpenPACE.withBuffer(piccKey, { PACE_STEP3B_compute_shared_secret(ctx, $0) }) == 1 else {
            throw Failure.openPACE("PACE_STEP3B_compute_shared_secret")
        }
        guard PACE_STEP3C_derive_keys(ctx) == 1 else { throw Failure.openPACE("PACE_STEP3C_derive_keys") }

        // 4: tokens both ways.
        let token = try OpenPACE.withBuffer(piccKey) {
            OpenPACE.take(PACE_STEP3D_compute_authentication_token(ctx, $0))
        }
        guard let token else { throw Failure.openPACE("PACE_STEP3D_compute_authentication_token") }
        let piccToken = try exchange(step: 4, PeerTLV(tag: 0x85, value: token), expect: 0x86)
        guard try OpenPACE.withBuffer(piccToken, { PACE_STEP3D_verify_authentication_token(ctx, $0) }) == 1 else {
            throw Failure.chipTokenRejected
        }
        guard EAC_CTX_set_encryption_ctx(ctx, eid_eac_id_pace()) == 1, EAC_reset_ssc(ctx) == 1 else {
            throw Failure.openPACE("EAC_CTX_set_encryption_ctx")
        }
        isEstablished = true
        return setAT
    }

    /// Sends `command` protected by OpenPACE and returns the response it verified and decrypted.
    public func transmitProtected(_ command: CommandAPDU) throws -> ResponseAPDU {
        guard isEstablished else { throw Failure.secureMessaging }
        let sm = OpenPACESecureMessaging(ctx: ctx)
        do {
            let response = try channel.transmit(try sm.protect(command))
            return try sm.unprotect(response)
        } catch let e as Failure {
            isEstablished = false
            throw e
        } catch {
            isEstablished = false
            ERR_clear_error()
            throw Failure.secureMessaging
        }
    }

    /// Switches OpenPACE's secure messaging to the keys of Chip Authentication, SSC 0.
    public func switchToChipAuthenticationKeys() throws {
        guard EAC_CTX_set_encryption_ctx(ctx, eid_eac_id_ca()) == 1, EAC_reset_ssc(ctx) == 1 else {
            throw Failure.openPACE("EAC_CTX_set_encryption_ctx")
        }
    }

    /// One General Authenticate (steps 1-3 chained, 4 last); returns the value of `tag`.
    private func exchange(step: Int, _ object: PeerTLV?, expect tag: UInt32) throws -> [UInt8] {
        let data = PeerTLV(tag: 0x7C, value: object?.encoded ?? []).encoded
        let response = try channel.transmit(
            CommandAPDU(cla: step == 4 ? 0x00 : 0x10, ins: 0x86, p1: 0, p2: 0, data: data, ne: 256))
        guard response.isSuccess else { throw Failure.refused(step: step, response.statusWord) }
        guard let outer = try? PeerTLV.parseAll(response.data), outer.count == 1, outer[0].tag == 0x7C,
            let inner = try? PeerTLV.parseAll(outer[0].value), let value = inner.first(where: { $0.tag == tag })?.value
        else { throw Failure.malformed(step: step) }
        return value
    }
}
