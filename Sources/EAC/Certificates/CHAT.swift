import SmartCard

/// A Certificate Holder Authorization Template (TR-03110-3, C.1.5; TR-03110-4, 2.2.3):
/// `7F4C { 06 terminal type, 53 relative authorization }`. The role sits in the two most
/// significant bits; the other bits are rights whose meaning depends on the terminal type
/// (for authentication terminals: `AccessRight`).
public struct CHAT: Hashable, Sendable {
    /// The terminal types under id-roles, with the length of their relative authorization.
    public enum TerminalType: Sendable, CaseIterable {
        /// id-IS, inspection system (1 byte).
        case inspectionSystem
        /// id-AT, authentication terminal (5 bytes).
        case authenticationTerminal
        /// id-ST, signature terminal (1 byte).
        case signatureTerminal

        public var objectIdentifier: OID {
            switch self {
            case .inspectionSystem: return .idIS
            case .authenticationTerminal: return .idAT
            case .signatureTerminal: return .idST
            }
        }

        public var authorizationLength: Int { self == .authenticationTerminal ? 5 : 1 }

        public init?(_ oid: OID) {
            guard let type = TerminalType.allCases.first(where: { $0.objectIdentifier == oid }) else { return nil }
            self = type
        }
    }

    public static let tag: UInt32 = 0x7F4C

    public let terminalType: TerminalType
    /// The relative authorization, `terminalType.authorizationLength` bytes, role bits included.
    public let relativeAuthorization: [UInt8]

    /// A CHAT from its parts; throws `CVCertificateError.invalidCHAT` for a wrong length.
    public init(terminalType: TerminalType, relativeAuthorization: [UInt8]) throws {
        guard relativeAuthorization.count == terminalType.authorizationLength else {
            throw CVCertificateError.invalidCHAT
        }
        self.terminalType = terminalType
        self.relativeAuthorization = relativeAuthorization
    }

    /// An authentication terminal's CHAT with `role` and `rights`.
    public init(role: CertificateRole, rights: Set<AccessRight>) {
        var bits = [UInt8](repeating: 0, count: 5)
        bits[0] = role.rawValue << 6
        for right in rights {
            let (byte, mask) = right.position
            bits[byte] |= mask
        }
        terminalType = .authenticationTerminal
        relativeAuthorization = bits
    }

    /// Decodes a complete `7F4C` object.
    public init(encoded bytes: [UInt8]) throws {
        try self.init(tlv: try CVDataObjectReader.single(bytes, tag: CHAT.tag))
    }

    init(tlv: TLV) throws {
        var reader = CVDataObjectReader(tlv)
        let oid = try reader.readObjectIdentifier()
        let bits = try reader.read(0x53).value
        try reader.finish()
        guard let type = TerminalType(oid) else { throw CVCertificateError.invalidCHAT }
        try self.init(terminalType: type, relativeAuthorization: bits)
    }

    public var tlv: TLV {
        TLV(tag: CHAT.tag, children: [terminalType.objectIdentifier.tlv, TLV(tag: 0x53, value: relativeAuthorization)])
    }

    /// The encoding `7F4C L 06 .. 53 ..`.
    public var encoded: [UInt8] { tlv.bytes }

    public var role: CertificateRole { CertificateRole(rawValue: relativeAuthorization[0] >> 6)! }

    /// The rights of an authentication terminal's CHAT (empty for other terminal types).
    public var accessRights: Set<AccessRight> {
        guard terminalType == .authenticationTerminal else { return [] }
        return Set(AccessRight.allCases.filter { relativeAuthorization[$0.position.byte] & $0.position.mask != 0 })
    }

    /// The bits without the role.
    private var rightBits: [UInt8] { [relativeAuthorization[0] & 0x3F] + relativeAuthorization.dropFirst() }

    /// Whether every right of this CHAT is also in `other` (roles ignored; false for different
    /// terminal types).
    public func isWithin(_ other: CHAT) -> Bool {
        guard terminalType == other.terminalType else { return false }
        return zip(rightBits, other.rightBits).allSatisfy { $0 & ~$1 == 0 }
    }

    /// The rights both CHATs grant, with this CHAT's role; nil for different terminal types.
    public func intersection(_ other: CHAT) -> CHAT? {
        guard terminalType == other.terminalType else { return nil }
        var bits = zip(relativeAuthorization, other.relativeAuthorization).map { $0 & $1 }
        bits[0] = relativeAuthorization[0] & 0xC0 | bits[0] & 0x3F
        return try? CHAT(terminalType: terminalType, relativeAuthorization: bits)
    }

    /// The effective authorization of an authentication (TR-03110-4, 2.2.3.2; docs/protocol.md, "Effective
    /// authorization"): the rights of the terminal certificate that its DV certificate also grants and that
    /// the user chose, as a terminal-role CHAT (the one that goes into MSE:Set AT for PACE).
    public static func effective(terminal: CHAT, documentVerifier: CHAT, selected: Set<AccessRight>) -> CHAT {
        let granted = terminal.accessRights.intersection(documentVerifier.accessRights)
        return CHAT(role: .terminal, rights: granted.intersection(selected))
    }
}
