import SmartCard

/// A certificate extension (TR-03110-3, C.3): a discretionary data template `73 { 06 OID,
/// context-specific objects }`, e.g. id-description with `80` = the hash of the certificate
/// description, or id-sector with the hashes of the sector public keys. Unknown extensions are
/// kept as they are (extensions are not critical).
public struct CertificateExtension: Equatable, Sendable {
    public static let idDescription = OID.idExtensions.appending(1)
    public static let idSector = OID.idExtensions.appending(2)

    public let identifier: OID
    /// The context-specific data objects (tags 80...9F, A0...BF) in their order.
    public let objects: [TLV]

    public init(identifier: OID, objects: [TLV]) {
        self.identifier = identifier
        self.objects = objects
    }

    /// The id-description extension for the certificate description's hash.
    public static func description(hash: [UInt8]) -> CertificateExtension {
        CertificateExtension(identifier: idDescription, objects: [TLV(tag: 0x80, value: hash)])
    }

    init(tlv: TLV) throws {
        guard tlv.tag == 0x73 else { throw CVCertificateError.unexpectedTag(expected: 0x73, found: tlv.tag) }
        var reader = CVDataObjectReader(tlv)
        identifier = try reader.readObjectIdentifier()
        var objects: [TLV] = []
        while let object = try reader.next() {
            guard object.tagBytes.first.map({ $0 & 0xC0 == 0x80 }) == true else {
                throw CVCertificateError.invalidExtension
            }
            objects.append(object)
        }
        self.objects = objects
    }

    public var tlv: TLV { TLV(tag: 0x73, children: [identifier.tlv] + objects) }

    /// The value of the object with `tag` (e.g. 0x80), if present.
    public func value(_ tag: UInt32) -> [UInt8]? { objects.first { $0.tag == tag }?.value }
}
