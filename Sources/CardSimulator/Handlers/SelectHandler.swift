import SmartCard

/// SELECT (A4):
/// - P1 00: the MF (data 3F00 or empty) or an EF of the current DF by file identifier;
/// - P1 02: an EF of the current DF by file identifier;
/// - P1 04: an application by AID (eID, ePass or eSign; see `CardApplication`).
/// P2 0C (no response data) for all of them, as the eID card and its terminals use it; P2 00
/// (return the FCI) for an application, answered with its FCI template (6F with the DF name 84).
/// Unknown file or application → 6A82; other P1/P2 → 6A86; a data field of the wrong length → 6700.
struct SelectHandler: CardCommandHandler {
    let instruction: UInt8 = 0xA4

    func handle(_ command: CommandAPDU, context: inout CardContext) throws -> ResponseAPDU {
        let returnsFCI = command.p1 == 0x04 && command.p2 == 0x00
        guard command.p2 == 0x0C || returnsFCI else { throw CardError.statusWord(.incorrectParameters) }
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
        if returnsFCI {
            let fci = CardApplication.fileControlInformation(command.data)
            return ResponseAPDU(data: Array(fci.prefix(command.ne ?? fci.count)), statusWord: .success)
        }
        return ResponseAPDU(statusWord: .success)
    }
}
