import EIDCrypto
import SmartCard

/// The certificate description of an authentication terminal (id-description; BSI TR-03110-4,
/// 2.2.6): who issued the terminal certificate, who holds it, its terms of usage, and the hashes
/// of the TLS certificates the service may use (CommCertificates).
///
/// ```
/// CertificateDescription ::= SEQUENCE {
///   descriptionType OBJECT IDENTIFIER, issuerName [1] UTF8String, issuerURL [2] PrintableString OPTIONAL,
///   subjectName [3] UTF8String, subjectURL [4] PrintableString OPTIONAL,
///   termsOfUsage [5] ANY DEFINED BY descriptionType, redirectURL [6] PrintableString OPTIONAL,
///   commCertificates [7] SET OF OCTET STRING OPTIONAL }
/// ```
/// The hash in the terminal certificate's id-description extension is taken over the exact
/// bytes received, so a parsed description keeps them (`encoded`).
public struct CertificateDescription: Equatable, Sendable {
    /// The terms of usage in one of the three formats descriptionType names.
    public enum TermsOfUsage: Equatable, Sendable {
        /// id-plainFormat: UTF8String.
        case plainText(String)
        /// id-htmlFormat: IA5String.
        case html(String)
        /// id-pdfFormat: OCTET STRING.
        case pdf([UInt8])

        public var descriptionType: OID {
            switch self {
            case .plainText: return CertificateDescription.idDescription.appending(1)
            case .html: return CertificateDescription.idDescription.appending(2)
            case .pdf: return CertificateDescription.idDescription.appending(3)
            }
        }
    }

    public static let idDescription = CertificateExtension.idDescription

    public let issuerName: String
    public let issuerURL: String?
    public let subjectName: String
    public let subjectURL: String?
    public let termsOfUsage: TermsOfUsage
    public let redirectURL: String?
    /// Hashes of the service's TLS certificates (hash of the DV certificate key's algorithm), in
    /// DER order.
    public let commCertificates: [[UInt8]]?
    /// The DER encoding, exactly as received or as encoded by `init(issuerName:...)`.
    public let encoded: [UInt8]

    /// A description encoded in DER (the SET OF hashes in DER order).
    public init(
        issuerName: String, issuerURL: String? = nil, subjectName: String, subjectURL: String?,
        termsOfUsage: TermsOfUsage, redirectURL: String? = nil, commCertificates: [[UInt8]]? = nil
    ) throws {
        for url in [issuerURL, subjectURL, redirectURL].compactMap({ $0 }) where !url.allSatisfy(\.isASCII) {
            throw CVCertificateError.invalidText
        }
        self.issuerName = issuerName
        self.issuerURL = issuerURL
        self.subjectName = subjectName
        self.subjectURL = subjectURL
        self.termsOfUsage = termsOfUsage
        self.redirectURL = redirectURL
        func explicit(_ n: UInt32, _ inner: TLV) -> TLV { TLV(tag: 0xA0 + n, children: [inner]) }
        func printable(_ s: String) -> TLV { TLV(tag: 0x13, value: Array(s.utf8)) }
        var children = [termsOfUsage.descriptionType.tlv, explicit(1, TLV(tag: 0x0C, value: Array(issuerName.utf8)))]
        if let issuerURL { children.append(explicit(2, printable(issuerURL))) }
        children.append(explicit(3, TLV(tag: 0x0C, value: Array(subjectName.utf8))))
        if let subjectURL { children.append(explicit(4, printable(subjectURL))) }
        switch termsOfUsage {
        case .plainText(let text): children.append(explicit(5, TLV(tag: 0x0C, value: Array(text.utf8))))
        case .html(let html): children.append(explicit(5, TLV(tag: 0x16, value: Array(html.utf8))))
        case .pdf(let pdf): children.append(explicit(5, TLV(tag: 0x04, value: pdf)))
        }
        if let redirectURL { children.append(explicit(6, printable(redirectURL))) }
        if let commCertificates {
            // DER: the elements of a SET OF sorted by their encodings.
            let sorted = commCertificates.map { TLV(tag: 0x04, value: $0) }.sorted {
                $0.bytes.lexicographicallyPrecedes($1.bytes)
            }
            children.append(explicit(7, TLV(tag: 0x31, children: sorted)))
            self.commCertificates = sorted.map(\.value)
        } else {
            self.commCertificates = nil
        }
        encoded = TLV(tag: 0x30, children: children).bytes
    }

    /// Decodes a DER CertificateDescription; anything else is `CVCertificateError`.
    public init(encoded bytes: [UInt8]) throws {
        var reader = CVDataObjectReader(try CVDataObjectReader.single(bytes, tag: 0x30))
        let type = try reader.readObjectIdentifier()
        func explicit(_ n: UInt32, _ tag: UInt32, optional: Bool) throws -> [UInt8]? {
            guard let outer = optional ? try reader.readIfPresent(0xA0 + n) : try reader.read(0xA0 + n) else {
                return nil
            }
            var inner = CVDataObjectReader(outer)
            let value = try inner.read(tag).value
            try inner.finish()
            return value
        }
        func required(_ text: String?) throws -> String {
            guard let text else { throw CVCertificateError.invalidText }
            return text
        }
        func text(_ value: [UInt8]?, ascii: Bool) throws -> String? {
            guard let value else { return nil }
            guard let s = String(validating: value, as: UTF8.self),
                !ascii || value.allSatisfy({ $0 < 0x80 })
            else { throw CVCertificateError.invalidText }
            return s
        }
        issuerName = try required(try text(try explicit(1, 0x0C, optional: false), ascii: false))
        issuerURL = try text(try explicit(2, 0x13, optional: true), ascii: true)
        subjectName = try required(try text(try explicit(3, 0x0C, optional: false), ascii: false))
        subjectURL = try text(try explicit(4, 0x13, optional: true), ascii: true)
        switch type {
        case TermsOfUsage.plainText("").descriptionType:
            termsOfUsage = .plainText(try required(try text(try explicit(5, 0x0C, optional: false), ascii: false)))
        case TermsOfUsage.html("").descriptionType:
            termsOfUsage = .html(try required(try text(try explicit(5, 0x16, optional: false), ascii: true)))
        case TermsOfUsage.pdf([]).descriptionType:
            termsOfUsage = .pdf(try explicit(5, 0x04, optional: false)!)
        default:
            throw CVCertificateError.unknownDescriptionType(type.dotted)
        }
        redirectURL = try text(try explicit(6, 0x13, optional: true), ascii: true)
        if let set = try reader.readIfPresent(0xA7) {
            var outer = CVDataObjectReader(set)
            var hashes = CVDataObjectReader(try outer.read(0x31))
            try outer.finish()
            var list: [[UInt8]] = []
            while !hashes.isAtEnd { list.append(try hashes.read(0x04).value) }
            commCertificates = list
        } else {
            commCertificates = nil
        }
        try reader.finish()
        encoded = bytes
    }

    /// Whether `hash(encoded)` with the hash of the terminal certificate key's algorithm equals
    /// the certificate's id-description extension (false when it has none).
    public func matches(_ terminal: CVCertificate) throws -> Bool {
        guard let expected = terminal.body.descriptionHash else { return false }
        let actual = try terminal.body.publicKey.algorithm.digest.hash(encoded)
        return ConstantTime.equals(actual, expected)
    }
}
