import SmartCard

/// Why DER-encoded data (an object identifier, SecurityInfos, EF.CardSecurity) could not be read.
public enum ASN1Error: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bytes are not well-formed TLV.
    case malformed(TLVError)
    /// An element has another tag than the structure requires at this place.
    case unexpectedTag(expected: UInt32, found: UInt32)
    /// A required element is missing; the text names it.
    case missingElement(String)
    /// The content of an OBJECT IDENTIFIER is not a valid encoding.
    case invalidObjectIdentifier
    /// An INTEGER is empty, not minimally encoded, negative, or too large for this field.
    case invalidInteger
    /// A string, BIT STRING or BOOLEAN has invalid content.
    case invalidContent(String)
    /// A SecurityInfo with a known protocol does not have the structure TR-03110-3 gives it.
    case invalidSecurityInfo(OID)
    /// EF.CardSecurity is not a CMS SignedData with SecurityInfos as its content.
    case notSignedSecurityInfos(String)

    public var description: String {
        switch self {
        case .malformed(let e): return "malformed DER: \(e)"
        case .unexpectedTag(let e, let f):
            return "expected tag \(String(e, radix: 16)), found \(String(f, radix: 16))"
        case .missingElement(let what): return "missing \(what)"
        case .invalidObjectIdentifier: return "invalid OBJECT IDENTIFIER encoding"
        case .invalidInteger: return "invalid INTEGER"
        case .invalidContent(let what): return "invalid content: \(what)"
        case .invalidSecurityInfo(let oid): return "SecurityInfo \(oid) does not have the expected structure"
        case .notSignedSecurityInfos(let why): return "EF.CardSecurity is not signed SecurityInfos: \(why)"
        }
    }
}
