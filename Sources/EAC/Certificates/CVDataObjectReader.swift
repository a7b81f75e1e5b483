import SmartCard

/// Reads the data objects of one constructed CV certificate object strictly: DER lengths only,
/// objects in the order the caller asks for them, nothing left over. Internal to the parsers of
/// CV certificates, CHATs, certificate descriptions and auxiliary data.
struct CVDataObjectReader {
    private let bytes: [UInt8]
    private var offset = 0
    /// The tag of the object whose content is read (0 for the top level).
    let container: UInt32

    init(_ bytes: [UInt8], container: UInt32) {
        self.bytes = bytes
        self.container = container
    }

    init(_ tlv: TLV) { self.init(tlv.value, container: tlv.tag) }

    var isAtEnd: Bool { offset >= bytes.count }

    /// The tag of the next object without consuming it (nil at the end).
    func peekTag() throws -> UInt32? {
        var copy = self
        return try copy.next()?.tag
    }

    /// The next object (nil at the end).
    mutating func next() throws -> TLV? {
        guard offset < bytes.count else { return nil }
        let start = offset
        let tlv: TLV
        do {
            tlv = try TLV.read(bytes, at: &offset)
        } catch let e as TLVError {
            if case .truncated = e { throw CVCertificateError.truncated(inside: tagPrefix(at: start) ?? container) }
            throw CVCertificateError.malformed(e)
        }
        guard tlv.bytes.count == offset - start else { throw CVCertificateError.nonMinimalLength(tag: tlv.tag) }
        return tlv
    }

    /// The tag that starts at `start`, if the bytes hold all of it.
    private func tagPrefix(at start: Int) -> UInt32? {
        guard start < bytes.count else { return nil }
        var tag = UInt32(bytes[start])
        guard tag & 0x1F == 0x1F else { return tag }
        var i = start + 1
        while i < bytes.count, i - start <= 3 {
            tag = tag << 8 | UInt32(bytes[i])
            if bytes[i] & 0x80 == 0 { return tag }
            i += 1
        }
        return nil
    }

    /// The next object, which must have `tag`.
    mutating func read(_ tag: UInt32) throws -> TLV {
        guard let tlv = try next() else { throw CVCertificateError.missingField(tag) }
        guard tlv.tag == tag else { throw CVCertificateError.unexpectedTag(expected: tag, found: tlv.tag) }
        return tlv
    }

    /// The next object if it has `tag`.
    mutating func readIfPresent(_ tag: UInt32) throws -> TLV? {
        guard try peekTag() == tag else { return nil }
        return try next()
    }

    /// Requires that nothing is left; a further object is an unknown field.
    func finish() throws {
        guard let tag = try peekTag() else { return }
        throw CVCertificateError.unknownField(tag, inside: container)
    }

    /// Parses exactly one top-level object with `tag` from `bytes`.
    static func single(_ bytes: [UInt8], tag: UInt32) throws -> TLV {
        var reader = CVDataObjectReader(bytes, container: 0)
        guard let tlv = try reader.next() else { throw CVCertificateError.truncated(inside: 0) }
        guard tlv.tag == tag else { throw CVCertificateError.unexpectedTag(expected: tag, found: tlv.tag) }
        if !reader.isAtEnd { throw CVCertificateError.trailingBytes(after: tag, count: bytes.count - tlv.bytes.count) }
        return tlv
    }
}

extension CVDataObjectReader {
    /// The next object, an OBJECT IDENTIFIER (06).
    mutating func readObjectIdentifier() throws -> OID {
        let tlv = try read(0x06)
        do { return try OID(derValue: tlv.value) } catch {
            throw CVCertificateError.invalidObjectIdentifier(tag: container)
        }
    }
}
