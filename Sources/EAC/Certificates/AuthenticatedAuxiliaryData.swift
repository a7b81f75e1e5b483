import SmartCard

/// Authenticated auxiliary data (BSI TR-03110-3, A.6.5; docs/protocol.md, "Authenticated auxiliary data"):
/// the values a terminal asks the card to compare, sent in MSE:Set AT for TA and signed with the TA
/// signature.
///
/// ```
/// AuthenticatedAuxiliaryData ::= [APPLICATION 7] IMPLICIT SET OF AuxDataTemplate      -- 67
/// AuxDataTemplate ::= [APPLICATION 19] IMPLICIT SEQUENCE { auxID OBJECT IDENTIFIER,    -- 73
///                                                          extInfo [APPLICATION 19] }  -- 53
/// ```
/// A parsed value keeps its bytes (`encoded`): the TA signature covers them exactly.
public struct AuthenticatedAuxiliaryData: Equatable, Sendable {
    public static let tag: UInt32 = 0x67

    /// The most bytes (the whole `67` object) eid takes from an eID server: the three templates
    /// TR-03110-3 A.6.5 defines (date of birth and date of expiry, 8 digits each; a community ID
    /// of at most 7 bytes) take about 70 bytes together, so 256 leaves room for repeated or
    /// future templates while keeping MSE:Set AT for TA a few hundred bytes long.
    public static let maximumLength = 256

    /// One auxiliary data template.
    public enum Element: Equatable, Sendable {
        /// id-DateOfBirth: holders born on or before this date pass the age verification (DG8).
        case ageVerification(CalendarDate)
        /// id-DateOfExpiry: the document must still be valid on this date (DG3).
        case documentValidity(CalendarDate)
        /// id-CommunityID: DG18 must start with these bytes.
        case communityID([UInt8])
        /// Another auxiliary data identifier, kept as it is.
        case other(OID, [UInt8])

        public static let idDateOfBirth = OID.idAuxiliaryData.appending(1)
        public static let idDateOfExpiry = OID.idAuxiliaryData.appending(2)
        public static let idCommunityID = OID.idAuxiliaryData.appending(3)

        public var identifier: OID {
            switch self {
            case .ageVerification: return Element.idDateOfBirth
            case .documentValidity: return Element.idDateOfExpiry
            case .communityID: return Element.idCommunityID
            case .other(let oid, _): return oid
            }
        }

        var value: [UInt8] {
            switch self {
            case .ageVerification(let date), .documentValidity(let date): return date.asciiDigits
            case .communityID(let prefix): return prefix
            case .other(_, let value): return value
            }
        }

        var tlv: TLV { TLV(tag: 0x73, children: [identifier.tlv, TLV(tag: 0x53, value: value)]) }

        init(tlv: TLV) throws {
            guard tlv.tag == 0x73 else { throw CVCertificateError.unexpectedTag(expected: 0x73, found: tlv.tag) }
            var reader = CVDataObjectReader(tlv)
            let oid = try reader.readObjectIdentifier()
            let value = try reader.read(0x53).value
            try reader.finish()
            switch oid {
            case Element.idDateOfBirth, Element.idDateOfExpiry:
                guard let date = CalendarDate(asciiDigits: value) else {
                    throw CVCertificateError.invalidDate(tag: 0x53)
                }
                self = oid == Element.idDateOfBirth ? .ageVerification(date) : .documentValidity(date)
            case Element.idCommunityID:
                self = .communityID(value)
            default:
                self = .other(oid, value)
            }
        }
    }

    public let elements: [Element]
    /// The encoding `67 ...`, exactly as received or as built here.
    public let encoded: [UInt8]

    public init(_ elements: [Element]) {
        self.elements = elements
        encoded = TLV(tag: AuthenticatedAuxiliaryData.tag, children: elements.map(\.tlv)).bytes
    }

    /// Decodes a complete `67` object; truncated or trailing bytes, a bad date or an unexpected
    /// object are `CVCertificateError`.
    public init(encoded bytes: [UInt8]) throws {
        var reader = CVDataObjectReader(try CVDataObjectReader.single(bytes, tag: AuthenticatedAuxiliaryData.tag))
        var elements: [Element] = []
        while let template = try reader.next() { elements.append(try Element(tlv: template)) }
        self.elements = elements
        encoded = bytes
    }

    public var ageVerificationDate: CalendarDate? {
        for case .ageVerification(let date) in elements { return date }
        return nil
    }

    public var documentValidityDate: CalendarDate? {
        for case .documentValidity(let date) in elements { return date }
        return nil
    }

    public var communityID: [UInt8]? {
        for case .communityID(let prefix) in elements { return prefix }
        return nil
    }
}
