import CardAccess

/// SELECT (A4), without response data (P2 = 0C, as the eID card and its terminals use it):
/// - P1 00: the MF (data 3F00 or empty) or an EF of the current DF by file identifier;
/// - P1 02: an EF of the current DF by file identifier;
/// - P1 04: an application by AID (the eID application).
/// Unknown file or application → 6A82; other P1/P2 → 6A86; a data field of the wrong length → 6700.
struct SelectHandler: CardCommandHandler {
    let instruction: UInt8 = 0xA4

    func handle(_ command: CommandAPDU, context: inout CardContext) throws -> ResponseAPDU {
        guard command.p2 == 0x0C else { throw CardError.statusWord(.incorrectParameters) }
        let fs = context.fileSystem
        var selection = context.session.selection
        switch command.p1 {
        case 0x00, 0x02:
            if command.p1 == 0x00 && command.data.isEmpty {
                selection = .masterFile
                break
            }
            guard command.data.count == 2 else { throw CardError.statusWord(.wrongLength) }
            let fid = UInt16(command.data[0]) << 8 | UInt16(command.data[1])
            if command.p1 == 0x00 && fid == CardFileSystem.masterFileID {
                selection = .masterFile
            } else if fs.dedicatedFiles[selection.dedicatedFile].file(id: fid) != nil {
                selection.elementaryFileID = fid
            } else {
                throw CardError.statusWord(.fileNotFound)
            }
        case 0x04:
            guard (1...16).contains(command.data.count) else { throw CardError.statusWord(.wrongLength) }
            guard let df = fs.dedicatedFile(applicationID: command.data) else {
                throw CardError.statusWord(.fileNotFound)
            }
            selection = CardFileSystem.Selection(dedicatedFile: df, elementaryFileID: nil)
        default:
            throw CardError.statusWord(.incorrectParameters)
        }
        context.session.selection = selection
        return ResponseAPDU(statusWord: .success)
    }
}
