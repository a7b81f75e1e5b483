import SmartCard

/// A data group of the eID application (BSI TR-03110-4 / TR-03127; docs/protocol.md, "eID data groups"): file ID
/// 01nn and short file ID nn for DGnn, content `[APPLICATION nn]` (tag 60+nn, explicit) around
/// the data group's type. `encode(text:)` makes the content from a value as text in the
/// data group's type; DG12, DG14 and DG16 only come as DER.
public enum EIDDataGroup {
    /// The data groups eid-sim holds: DG1 … DG21.
    public static let numbers = 1...21

    public static func fileID(_ number: Int) -> UInt16 { 0x0100 + UInt16(number) }
    public static func shortFileID(_ number: Int) -> UInt8 { UInt8(number) }
    public static func tag(_ number: Int) -> UInt32 { 0x60 + UInt32(number) }

    /// The ASN.1 type inside a data group, and how a text value is written in it.
    public enum ValueType: Equatable, Sendable {
        /// PrintableString (13): DG1, DG2, DG10, DG11, DG21.
        case printableString
        /// NumericString (12) YYYYMMDD, unknown parts as spaces: DG3, DG8, DG15.
        case date
        /// UTF8String (0C): DG4-DG7, DG13.
        case utf8String
        /// GeneralPlace (DG9, DG17): text is freetextPlace `[1] UTF8String`; a structured
        /// place comes from `place(...)`.
        case generalPlace
        /// OCTET STRING (04), written as hex: DG18.
        case octetString
        /// Text (DG19, DG20): uncompressed `[1] UTF8String`.
        case text
        /// No text form: DG12 (OptionalDataR), DG14, DG16; DER only.
        case derOnly
    }

    public static func valueType(_ number: Int) -> ValueType {
        switch number {
        case 1, 2, 10, 11, 21: return .printableString
        case 3, 8, 15: return .date
        case 4, 5, 6, 7, 13: return .utf8String
        case 9, 17: return .generalPlace
        case 18: return .octetString
        case 19, 20: return .text
        default: return .derOnly
        }
    }

    /// Why a value cannot be a data group's content.
    public enum ValueError: Error, Equatable, Sendable {
        /// What the value must be, in words.
        case invalid(requirement: String)
    }

    /// The content of data group `number` holding `text` in the group's type.
    public static func encode(_ number: Int, text: String) throws -> [UInt8] {
        let inner: TLV
        switch valueType(number) {
        case .printableString:
            guard text.unicodeScalars.allSatisfy(isPrintableStringCharacter) else {
                throw ValueError.invalid(requirement: "must be a PrintableString (A-Z a-z 0-9 space '()+,-./:=?)")
            }
            inner = TLV(tag: 0x13, value: Array(text.utf8))
        case .date:
            guard text.utf8.count == 8, text.utf8.allSatisfy({ (0x30...0x39).contains($0) || $0 == 0x20 }) else {
                throw ValueError.invalid(requirement: "must be a date YYYYMMDD (unknown digits as spaces)")
            }
            inner = TLV(tag: 0x12, value: Array(text.utf8))
        case .utf8String:
            inner = TLV(tag: 0x0C, value: Array(text.utf8))
        case .generalPlace, .text:
            inner = TLV(tag: 0xA1, children: [TLV(tag: 0x0C, value: Array(text.utf8))])
        case .octetString:
            guard let bytes = [UInt8](hex: text) else {
                throw ValueError.invalid(requirement: "must be hexadecimal (an even number of 0-9a-f)")
            }
            inner = TLV(tag: 0x04, value: bytes)
        case .derOnly:
            throw ValueError.invalid(requirement: "has no text form: give it as {\"der\": \"hex\"}")
        }
        return TLV(tag: tag(number), children: [inner]).bytes
    }

    /// The content of DG9 or DG17 holding a structured place (`Place`, explicit context tags
    /// AA…AE): street, city, state (UTF8String), country (ICAO code) and zip code (PrintableString).
    public static func place(
        _ number: Int, street: String?, city: String, state: String?, country: String, zipCode: String?
    ) throws -> [UInt8] {
        guard valueType(number) == .generalPlace else {
            throw ValueError.invalid(requirement: "is not a place: only DG9 and DG17 hold places")
        }
        for printable in [country, zipCode ?? ""] where !printable.unicodeScalars.allSatisfy(isPrintableStringCharacter)
        {
            throw ValueError.invalid(requirement: "country and zipCode must be PrintableStrings")
        }
        func field(_ tag: UInt32, _ type: UInt32, _ value: String?) -> TLV? {
            value.map { TLV(tag: tag, children: [TLV(tag: type, value: Array($0.utf8))]) }
        }
        let fields = [
            field(0xAA, 0x0C, street), field(0xAB, 0x0C, city), field(0xAC, 0x0C, state), field(0xAD, 0x13, country),
            field(0xAE, 0x13, zipCode),
        ].compactMap { $0 }
        return TLV(tag: tag(number), children: [TLV(tag: 0x30, children: fields)]).bytes
    }

    /// Checks DER given for data group `number`: exactly one object with the group's tag.
    public static func validate(_ number: Int, der: [UInt8]) throws {
        guard let tlvs = try? TLV.parseAll(der), tlvs.count == 1, tlvs[0].tag == tag(number) else {
            throw ValueError.invalid(
                requirement: "must be one DER object with tag " + String(tag(number), radix: 16) + " (DG\(number))")
        }
    }

    /// The value inside data group content `der` (the content of its single inner object), for
    /// the card's own comparisons (VERIFY); nil when the content is not one inner object.
    static func innerValue(_ der: [UInt8]) -> [UInt8]? {
        guard let outer = try? TLV.parseAll(der), outer.count == 1, let inner = try? outer[0].children(),
            inner.count == 1
        else { return nil }
        return inner[0].value
    }

    private static func isPrintableStringCharacter(_ c: Unicode.Scalar) -> Bool {
        switch c {
        case "A"..."Z", "a"..."z", "0"..."9", " ", "'", "(", ")", "+", ",", "-", ".", "/", ":", "=", "?": return true
        default: return false
        }
    }
}
