import SmartCard

/// Why bytes are not a CV certificate this library accepts (TR-03110-3, appendix C). Parsing is
/// strict: the body's data objects must appear exactly once, in the order of table C.1, in DER
/// form; anything else is refused with the case that says what is wrong. Tags are shown in hex.
public enum CVCertificateError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The data ends inside the object with this tag (0 = before the first object).
    case truncated(inside: UInt32)
    /// Bytes follow the complete object with this tag.
    case trailingBytes(after: UInt32, count: Int)
    /// A length is encoded in more bytes than DER allows (e.g. 82 00 10 for 16).
    case nonMinimalLength(tag: UInt32)
    /// A tag or length that BER-TLV itself rejects (indefinite length, tag longer than 4 bytes).
    case malformed(TLVError)
    /// The object at this place has another tag than the certificate format requires.
    case unexpectedTag(expected: UInt32, found: UInt32)
    /// A mandatory data object is missing.
    case missingField(UInt32)
    /// A data object the format does not define here (an unknown critical field), inside `container`.
    case unknownField(UInt32, inside: UInt32)
    /// The certificate profile identifier (5F29) is not 00, the only version defined.
    case unsupportedProfile(UInt8)
    /// The CAR (42) or CHR (5F20) is empty, longer than 16 characters or not printable ASCII.
    case invalidReference(tag: UInt32)
    /// An effective (5F25) or expiration (5F24) date is not six BCD digits of a real date.
    case invalidDate(tag: UInt32)
    /// The expiration date lies before the effective date.
    case expirationBeforeEffectiveDate
    /// The public key's algorithm identifier is not id-TA-ECDSA-SHA-1 ... SHA-512.
    case unsupportedPublicKeyAlgorithm(String)
    /// Some but not all of the domain parameters 81...85, 87 are present.
    case incompleteDomainParameters
    /// The domain parameters are not those of a supported standardized curve.
    case unsupportedDomainParameters
    /// The public point (86) is not an uncompressed point on the curve of the domain parameters.
    case invalidPublicPoint
    /// A public key without domain parameters and no CVCA's parameters to inherit.
    case missingDomainParameters
    /// The CHAT's terminal type is unknown, or its relative authorization has the wrong length.
    case invalidCHAT
    /// A certificate extension (73 in 65) is not an OID followed by context-specific objects.
    case invalidExtension
    /// An OBJECT IDENTIFIER's content is not valid.
    case invalidObjectIdentifier(tag: UInt32)
    /// A certificate description's descriptionType is not id-plainFormat, id-htmlFormat or id-pdfFormat.
    case unknownDescriptionType(String)
    /// A string is not valid UTF-8, or a URL or HTML text is not ASCII.
    case invalidText
    /// The signature (5F37) is empty or not twice the length of the signer's group order.
    case invalidSignatureLength(Int)

    public var description: String {
        func h(_ t: UInt32) -> String { String(t, radix: 16, uppercase: true) }
        switch self {
        case .truncated(let t): return t == 0 ? "the certificate is empty" : "the data ends inside object \(h(t))"
        case .trailingBytes(let t, let n): return "\(n) unexpected bytes after object \(h(t))"
        case .nonMinimalLength(let t): return "object \(h(t)) has an over-long length encoding"
        case .malformed(let e): return "malformed TLV: \(e)"
        case .unexpectedTag(let e, let f): return "expected object \(h(e)), found \(h(f))"
        case .missingField(let t): return "mandatory object \(h(t)) is missing"
        case .unknownField(let t, let c): return "unknown object \(h(t)) inside \(h(c))"
        case .unsupportedProfile(let p): return "certificate profile identifier \(p) is not supported"
        case .invalidReference(let t): return "the reference in object \(h(t)) is not 1-16 printable characters"
        case .invalidDate(let t): return "object \(h(t)) is not a valid date"
        case .expirationBeforeEffectiveDate: return "the expiration date is before the effective date"
        case .unsupportedPublicKeyAlgorithm(let oid): return "public key algorithm \(oid) is not supported"
        case .incompleteDomainParameters: return "the public key carries an incomplete set of domain parameters"
        case .unsupportedDomainParameters: return "the public key's domain parameters are not a supported curve"
        case .invalidPublicPoint: return "the public point is not a valid point on the curve"
        case .missingDomainParameters: return "the public key has no domain parameters and none to inherit"
        case .invalidCHAT: return "the CHAT has an unknown terminal type or a wrong length"
        case .invalidExtension: return "a certificate extension is malformed"
        case .invalidObjectIdentifier(let t): return "the object identifier in \(h(t)) is invalid"
        case .unknownDescriptionType(let oid): return "certificate description type \(oid) is unknown"
        case .invalidText: return "a text is not valid UTF-8, or a URL is not ASCII"
        case .invalidSignatureLength(let n): return "a signature of \(n) bytes has the wrong length"
        }
    }
}
