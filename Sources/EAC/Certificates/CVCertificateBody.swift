import SmartCard

/// The certificate body `7F4E` (TR-03110-3, C.1): profile identifier, CAR, public key, CHR,
/// CHAT, effective and expiration date, optional extensions, in this order.
public struct CVCertificateBody: Equatable, Sendable {
    public static let tag: UInt32 = 0x7F4E

    /// Certificate Profile Identifier (5F29); 0 is the only version.
    public var profileIdentifier: UInt8
    /// Certification Authority Reference (42): the CHR of the issuer's certificate.
    public var authorityReference: String
    public var publicKey: CVPublicKey
    /// Certificate Holder Reference (5F20).
    public var holderReference: String
    public var chat: CHAT
    public var effectiveDate: CalendarDate
    public var expirationDate: CalendarDate
    /// The extensions (65), or nil when the certificate has no extensions object.
    public var extensions: [CertificateExtension]?

    public init(
        authorityReference: String, publicKey: CVPublicKey, holderReference: String, chat: CHAT,
        effectiveDate: CalendarDate, expirationDate: CalendarDate, extensions: [CertificateExtension]? = nil
    ) {
        self.profileIdentifier = 0
        self.authorityReference = authorityReference
        self.publicKey = publicKey
        self.holderReference = holderReference
        self.chat = chat
        self.effectiveDate = effectiveDate
        self.expirationDate = expirationDate
        self.extensions = extensions
    }

    /// Decodes a complete `7F4E` object (as PSO:Verify Certificate carries it, before `5F37`).
    public init(encoded bytes: [UInt8]) throws {
        try self.init(tlv: try CVDataObjectReader.single(bytes, tag: CVCertificateBody.tag))
    }

    init(tlv: TLV) throws {
        var reader = CVDataObjectReader(tlv)
        let profile = try reader.read(0x5F29).value
        guard profile.count == 1 else { throw CVCertificateError.unsupportedProfile(profile.first ?? 0xFF) }
        guard profile[0] == 0 else { throw CVCertificateError.unsupportedProfile(profile[0]) }
        profileIdentifier = 0
        authorityReference = try CVCertificateBody.reference(try reader.read(0x42))
        publicKey = try CVPublicKey(tlv: try reader.read(CVPublicKey.tag))
        holderReference = try CVCertificateBody.reference(try reader.read(0x5F20))
        chat = try CHAT(tlv: try reader.read(CHAT.tag))
        effectiveDate = try CVCertificateBody.date(try reader.read(0x5F25))
        expirationDate = try CVCertificateBody.date(try reader.read(0x5F24))
        if let container = try reader.readIfPresent(0x65) {
            var inner = CVDataObjectReader(container)
            var list: [CertificateExtension] = []
            while let template = try inner.next() { list.append(try CertificateExtension(tlv: template)) }
            extensions = list
        } else {
            extensions = nil
        }
        try reader.finish()
        guard effectiveDate <= expirationDate else { throw CVCertificateError.expirationBeforeEffectiveDate }
    }

    public var tlv: TLV {
        get throws {
            guard let effective = effectiveDate.unpackedBCD else { throw CVCertificateError.invalidDate(tag: 0x5F25) }
            guard let expiration = expirationDate.unpackedBCD else { throw CVCertificateError.invalidDate(tag: 0x5F24) }
            for (tag, reference) in [(UInt32(0x42), authorityReference), (0x5F20, holderReference)]
            where !CVCertificateBody.isValidReference(reference) {
                throw CVCertificateError.invalidReference(tag: tag)
            }
            var children = [
                TLV(tag: 0x5F29, value: [profileIdentifier]), TLV(tag: 0x42, value: Array(authorityReference.utf8)),
                publicKey.tlv, TLV(tag: 0x5F20, value: Array(holderReference.utf8)), chat.tlv,
                TLV(tag: 0x5F25, value: effective), TLV(tag: 0x5F24, value: expiration),
            ]
            if let extensions { children.append(TLV(tag: 0x65, children: extensions.map(\.tlv))) }
            return TLV(tag: CVCertificateBody.tag, children: children)
        }
    }

    /// The DER encoding of the whole `7F4E` object: the input of the certificate's signature.
    public var encoded: [UInt8] { get throws { try tlv.bytes } }

    /// The value of the id-description extension (80), the hash of the certificate description.
    public var descriptionHash: [UInt8]? {
        extensions?.first { $0.identifier == CertificateExtension.idDescription }?.value(0x80)
    }

    public var isSelfSigned: Bool { authorityReference == holderReference }

    static func isValidReference(_ s: String) -> Bool {
        let bytes = Array(s.utf8)
        return (1...16).contains(bytes.count) && bytes.allSatisfy { (0x20...0x7E).contains($0) }
    }

    private static func reference(_ tlv: TLV) throws -> String {
        let s = String(decoding: tlv.value, as: UTF8.self)
        guard isValidReference(s), s.utf8.count == tlv.value.count else {
            throw CVCertificateError.invalidReference(tag: tlv.tag)
        }
        return s
    }

    private static func date(_ tlv: TLV) throws -> CalendarDate {
        guard let date = CalendarDate(unpackedBCD: tlv.value) else {
            throw CVCertificateError.invalidDate(tag: tlv.tag)
        }
        return date
    }
}
