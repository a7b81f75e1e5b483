import SmartCard

/// READ BINARY (B0) of a transparent EF.
/// - P1 bit 8 set: bits 5-1 are a short file identifier (the file becomes the current EF),
///   P2 is the offset (0...255); bits 7-6 must be 0 (else 6A86).
/// - P1 bit 8 clear: P1P2 is a 15-bit offset in the current EF (none selected → 6986).
///
/// Answers as many bytes as there are from the offset, up to Ne (256 for Le 00, 65536 for
/// extended Le 0000). Status when the file ends before Ne bytes: 9000 when Le asked for "as
/// much as there is" (Ne 256 or 65536), else 6282 (end of file reached before Ne bytes), per
/// ISO/IEC 7816-4. An offset exactly at the end answers no data with 6282; an offset beyond
/// the end answers 6B00. No Le at all → 6700. A file readable only after PACE → 6982 before
/// PACE; an eID data group → 6982 unless Terminal and Chip Authentication succeeded in this
/// session and the effective CHAT grants reading it (`EACAccess.grants`), by short file ID and
/// after SELECT alike.
struct ReadBinaryHandler: CardCommandHandler {
    let instruction: UInt8 = 0xB0

    func handle(_ command: CommandAPDU, context: inout CardContext) throws -> ResponseAPDU {
        guard command.data.isEmpty, let ne = command.ne else { throw CardError.statusWord(.wrongLength) }
        let fs = context.fileSystem
        let selection: CardFileSystem.Selection
        let offset: Int
        if command.p1 & 0x80 != 0 {
            guard command.p1 & 0x60 == 0 else { throw CardError.statusWord(.incorrectParameters) }
            let sfi = command.p1 & 0x1F
            guard sfi >= 1 && sfi <= 30 else { throw CardError.statusWord(.incorrectParameters) }
            guard let found = fs.locate(shortID: sfi, from: context.session.selection.dedicatedFile) else {
                throw CardError.statusWord(.fileNotFound)
            }
            selection = found
            offset = Int(command.p2)
        } else {
            guard context.session.selection.elementaryFileID != nil else {
                throw CardError.statusWord(StatusWord(rawValue: 0x6986))
            }
            selection = context.session.selection
            offset = Int(command.p1) << 8 | Int(command.p2)
        }
        guard let file = fs.file(at: selection) else { throw CardError.statusWord(.fileNotFound) }
        switch file.readAccess {
        case .always: break
        case .afterPACE:
            try context.requirePACE()
        case .granted(let right):
            guard context.session.eacAccess.grants(right) else {
                throw CardError.statusWord(.securityStatusNotSatisfied)
            }
        }
        context.session.selection = selection
        let content = file.content
        guard offset <= content.count else { throw CardError.statusWord(.wrongParametersP1P2) }
        let end = min(content.count, offset + ne)
        let data = Array(content[offset..<end])
        let askedForAll = ne == CommandAPDU.maxShortNe || ne == CommandAPDU.maxExtendedNe
        let endOfFile = data.count < ne && (data.isEmpty || !askedForAll)
        return ResponseAPDU(data: data, statusWord: endOfFile ? StatusWord(rawValue: 0x6282) : .success)
    }
}
