import EAC
import SmartCard

/// VERIFY (CLA 80, INS 20, P1P2 80 00) of authenticated auxiliary data (TR-03110-3, B.11.8; docs/protocol.md,
/// "Authenticated auxiliary data"): the data field is an auxiliary data OID (`06 09 04007f00070301040n`), and
/// the card compares its data groups with the value Terminal Authentication authenticated for that OID
/// (`CardSession.authenticatedAuxiliaryData`):
/// - id-DateOfBirth (age): passes when DG8 ≤ the date; an unknown month or day (spaces or 00)
///   counts as the latest possible (12, 31), so a partly known birth date never passes too
///   early; needs the right age verification;
/// - id-DateOfExpiry (document validity): passes when DG3 ≥ the date (an unknown month or day
///   as 01); the CHAT has no right for it, every authenticated terminal may ask;
/// - id-CommunityID: passes when DG18's octets start with the value; needs the right
///   community-ID verification.
/// 9000 passes, 6300 fails (also when the data group is missing or not a date). Before
/// Terminal and Chip Authentication, after PACE with the CAN without "CAN allowed", or without
/// the right → 6982 (`EACAccess.grants`). P1P2 other than 80 00 → 6A86;
/// a data field that is not one OID → 6A80; another OID, or none of its kind among the
/// authenticated auxiliary data → 6A88. Only CLA 80 (proprietary; 8C with secure messaging).
struct VerifyHandler: CardCommandHandler {
    typealias Element = AuthenticatedAuxiliaryData.Element

    let instruction: UInt8 = 0x20
    var acceptsProprietaryClass: Bool { true }

    func handle(_ command: CommandAPDU, context: inout CardContext) throws -> ResponseAPDU {
        guard command.cla & 0x80 != 0 else { throw CardError.statusWord(.classNotSupported) }
        guard command.p1 == 0x80 && command.p2 == 0x00 else { throw CardError.statusWord(.incorrectParameters) }
        guard let tlvs = try? TLV.parseAll(command.data), tlvs.count == 1, tlvs[0].tag == 0x06,
            let oid = try? OID(derValue: tlvs[0].value)
        else { throw CardError.statusWord(.wrongData) }
        let access = context.session.eacAccess
        guard access.opensEIDApplication else { throw CardError.statusWord(.securityStatusNotSatisfied) }
        let elements = context.session.authenticatedAuxiliaryData?.elements ?? []
        let dataGroups = context.fileSystem.eIDDataGroups
        let passes: Bool
        switch oid {
        case Element.idDateOfBirth:
            guard access.grants(.ageVerification) else { throw CardError.statusWord(.securityStatusNotSatisfied) }
            guard case .ageVerification(let date)? = elements.first(where: { $0.identifier == oid }) else {
                throw CardError.statusWord(.referenceDataNotFound)
            }
            passes = VerifyHandler.date(dataGroups[8], latest: true).map { $0 <= date.asciiDigits } ?? false
        case Element.idDateOfExpiry:
            guard case .documentValidity(let date)? = elements.first(where: { $0.identifier == oid }) else {
                throw CardError.statusWord(.referenceDataNotFound)
            }
            passes = VerifyHandler.date(dataGroups[3], latest: false).map { $0 >= date.asciiDigits } ?? false
        case Element.idCommunityID:
            guard access.grants(.communityIDVerification) else {
                throw CardError.statusWord(.securityStatusNotSatisfied)
            }
            guard case .communityID(let prefix)? = elements.first(where: { $0.identifier == oid }) else {
                throw CardError.statusWord(.referenceDataNotFound)
            }
            passes = dataGroups[18].flatMap(EIDDataGroup.innerValue).map { $0.starts(with: prefix) } ?? false
        default:
            throw CardError.statusWord(.referenceDataNotFound)
        }
        return ResponseAPDU(statusWord: passes ? .success : .authenticationFailed)
    }

    /// The eight ASCII digits YYYYMMDD of a date data group (NumericString), an unknown month
    /// or day (two spaces or 00) replaced by the `latest` (12, 31) or earliest (01) possible;
    /// nil when the content is not such a date or the year is unknown.
    static func date(_ content: [UInt8]?, latest: Bool) -> [UInt8]? {
        guard let value = content.flatMap(EIDDataGroup.innerValue), value.count == 8 else { return nil }
        let year = Array(value[0..<4])
        var month = Array(value[4..<6])
        var day = Array(value[6..<8])
        let unknown: Set<[UInt8]> = [[0x20, 0x20], [0x30, 0x30]]
        if unknown.contains(month) { month = Array((latest ? "12" : "01").utf8) }
        if unknown.contains(day) { day = Array((latest ? "31" : "01").utf8) }
        let digits = year + month + day
        guard digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return digits
    }
}

extension Array where Element == UInt8 {
    /// Byte-wise comparison of equally long ASCII digit strings (as dates YYYYMMDD compare).
    fileprivate static func <= (lhs: [UInt8], rhs: [UInt8]) -> Bool { !rhs.lexicographicallyPrecedes(lhs) }
    fileprivate static func >= (lhs: [UInt8], rhs: [UInt8]) -> Bool { !lhs.lexicographicallyPrecedes(rhs) }
}
