import SmartCard

/// The content of MSE:Set AT for PACE (00 22 C1 A4; BSI TR-03110-3, B.1 and D.3.3): what the
/// terminal builds (`command`) and the software card reads (`init(command:offeredProtocols:)`),
/// so both sides use one structure:
///
///     80 protocol OID, 83 password reference, [84 domain parameter id], [7F4C CHAT]
///
/// The card's answer is read as a `MSESetATOutcome`.
public struct PACEAuthenticationTemplate: Equatable, Sendable {
    /// The PACE protocol (data object 80), e.g. id-PACE-ECDH-GM-AES-CBC-CMAC-128.
    public var `protocol`: OID
    /// The password PACE runs with (data object 83).
    public var password: PACEPasswordType
    /// Data object 84's content (the domain parameter id, when the card offers several), if sent.
    public var domainParameterID: [UInt8]?
    /// The whole 7F4C object (certificate holder authorization template: 06 role OID, 53
    /// rights), sent when Terminal Authentication follows.
    public var chat: [UInt8]?

    public init(
        protocol oid: OID, password: PACEPasswordType, domainParameterID: [UInt8]? = nil,
        chat: [UInt8]? = nil
    ) {
        self.protocol = oid
        self.password = password
        self.domainParameterID = domainParameterID
        self.chat = chat
    }

    /// MSE:Set AT carrying this template; its data objects in the order of TR-03110-3, D.3.3.
    public var command: CommandAPDU {
        get throws(CommandAPDUError) {
            var data =
                TLV(tag: 0x80, value: `protocol`.derValue).bytes + TLV(tag: 0x83, value: [password.rawValue]).bytes
            if let domainParameterID { data += TLV(tag: 0x84, value: domainParameterID).bytes }
            if let chat { data += chat }
            return try CommandAPDU(cla: 0x00, ins: 0x22, p1: 0xC1, p2: 0xA4, data: data)
        }
    }

    /// Reads a received MSE:Set AT for PACE the way the eID card does. Throws
    /// `CardError.statusWord` with the card's answer:
    /// - 6A86: not INS 22 with P1P2 C1 A4;
    /// - 6700: no data (AusweisApp2 sends exactly that, unprotected, to end a PACE channel);
    /// - 6A80: broken TLV; a data object other than 80, 83, 84, 7F4C, or one of them twice;
    ///   80 or 83 missing, 83 not one byte; a CHAT without 06 and 53; a protocol that is not an
    ///   object identifier or (with `offeredProtocols`) not one of those the card offers;
    /// - 6A88: a password reference other than 01...04.
    public init(command: CommandAPDU, offeredProtocols: [OID]? = nil) throws {
        guard command.ins == 0x22, command.p1 == 0xC1, command.p2 == 0xA4 else {
            throw CardError.statusWord(.incorrectParameters)
        }
        guard !command.data.isEmpty else { throw CardError.statusWord(.wrongLength) }
        let objects: [TLV]
        do { objects = try TLV.parseAll(command.data) } catch { throw CardError.statusWord(.wrongData) }
        var byTag: [UInt32: TLV] = [:]
        for object in objects {
            guard [0x80, 0x83, 0x84, 0x7F4C].contains(object.tag), byTag[object.tag] == nil else {
                throw CardError.statusWord(.wrongData)
            }
            byTag[object.tag] = object
        }
        guard let oidValue = byTag[0x80]?.value, let reference = byTag[0x83]?.value, reference.count == 1 else {
            throw CardError.statusWord(.wrongData)
        }
        if let chat = byTag[0x7F4C] {
            guard let children = try? chat.children(), children.count == 2, children[0].tag == 0x06,
                children[1].tag == 0x53
            else { throw CardError.statusWord(.wrongData) }
        }
        guard let oid = try? OID(derValue: oidValue),
            offeredProtocols.map({ $0.contains { $0.derValue == oidValue } }) ?? true
        else { throw CardError.statusWord(.wrongData) }
        guard let password = PACEPasswordType(rawValue: reference[0]) else {
            throw CardError.statusWord(.referenceDataNotFound)
        }
        self.init(protocol: oid, password: password, domainParameterID: byTag[0x84]?.value, chat: byTag[0x7F4C]?.bytes)
    }
}
