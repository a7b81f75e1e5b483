import CardAccess

/// MSE (22). Phase 1 knows Set AT for PACE (P1P2 C1 A4); Set AT for TA (81 A4) and CA (41 A4)
/// come with those protocols. Other P1P2 → 6A86.
///
/// Set AT for PACE without any data → 6700, as on the eID card: AusweisApp2 sends exactly that,
/// unprotected, to end a PACE channel. Otherwise data objects 80 (protocol OID), 83 (password reference, one byte), optional
/// 84 (domain parameter id) and 7F4C (CHAT: 06 OID and 53 rights), each at most once. Broken
/// TLV, a missing/duplicate/unknown object, a CHAT without 06 and 53 → 6A80; an OID the card
/// does not offer for PACE → 6A80; a password reference other than 01...04 → 6A88. Then the
/// answer comes from the password state (`PasswordState.mseStatus`): for the PIN 6283 when
/// the eID function is off, 63Cx when the counter is below 3. The setup is remembered in the
/// session for the following General Authenticate in every case that is not an error (6Axx),
/// and a PACE run in progress is abandoned.
struct ManageSecurityEnvironmentHandler: CardCommandHandler {
    let instruction: UInt8 = 0x22
    /// The PACE protocols the card implements (OID content bytes).
    let supportedPACEProtocols: [[UInt8]]

    func handle(_ command: CommandAPDU, context: inout CardContext) throws -> ResponseAPDU {
        guard command.p1 == 0xC1 && command.p2 == 0xA4 else { throw CardError.statusWord(.incorrectParameters) }
        guard !command.data.isEmpty else { throw CardError.statusWord(.wrongLength) }
        let setup = try parsePACESetup(command.data)
        context.session.paceSetup = setup
        context.session.protocolState[PACERun.key] = nil  // a new PACE starts at step 1
        return ResponseAPDU(statusWord: context.passwords.mseStatus(for: setup.password))
    }

    func parsePACESetup(_ data: [UInt8]) throws -> PACESetup {
        let objects: [TLV]
        do { objects = try TLV.parseAll(data) } catch { throw CardError.statusWord(.wrongData) }
        var byTag: [UInt32: TLV] = [:]
        for object in objects {
            guard [0x80, 0x83, 0x84, 0x7F4C].contains(object.tag), byTag[object.tag] == nil else {
                throw CardError.statusWord(.wrongData)
            }
            byTag[object.tag] = object
        }
        guard let oid = byTag[0x80]?.value, let ref = byTag[0x83]?.value, ref.count == 1 else {
            throw CardError.statusWord(.wrongData)
        }
        if let chat = byTag[0x7F4C] {
            guard let children = try? chat.children(), children.count == 2, children[0].tag == 0x06,
                children[1].tag == 0x53
            else { throw CardError.statusWord(.wrongData) }
        }
        guard supportedPACEProtocols.contains(oid) else { throw CardError.statusWord(.wrongData) }
        guard let password = PasswordState.Reference(rawValue: ref[0]) else {
            throw CardError.statusWord(.referenceDataNotFound)
        }
        return PACESetup(
            protocolOID: oid, password: password, domainParameterID: byTag[0x84]?.value,
            chat: byTag[0x7F4C]?.bytes)
    }
}
