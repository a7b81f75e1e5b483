/// Builders for the ISO/IEC 7816-4 commands that every layer uses. Protocol-specific commands
/// (MSE:Set AT, General Authenticate, RESET RETRY COUNTER) live with their protocol.
public enum CardCommand {
    /// SELECT by file identifier (P1 = 02, elementary file under the current DF; no response data).
    public static func selectFile(_ fileID: UInt16) -> CommandAPDU {
        CommandAPDU(ins: 0xA4, p1: 0x02, p2: 0x0C, data: [UInt8(fileID >> 8), UInt8(fileID & 0xFF)])
    }

    /// SELECT the master file (3F00).
    public static let selectMasterFile = CommandAPDU(ins: 0xA4, p1: 0x00, p2: 0x0C, data: [0x3F, 0x00])

    /// SELECT an application by AID (P1 = 04, no response data).
    public static func selectApplication(_ aid: [UInt8]) -> CommandAPDU {
        CommandAPDU(ins: 0xA4, p1: 0x04, p2: 0x0C, data: aid)
    }

    /// READ BINARY of the file with short file identifier `sfi` (1...30), from offset 0..255.
    public static func readBinary(shortFileID sfi: UInt8, offset: UInt8 = 0, ne: Int = CommandAPDU.maxShortNe)
        -> CommandAPDU
    {
        precondition(sfi >= 1 && sfi <= 30, "short file identifier out of range")
        return CommandAPDU(ins: 0xB0, p1: 0x80 | sfi, p2: offset, ne: ne)
    }

    /// READ BINARY of the currently selected file from `offset` (0...32767).
    public static func readBinary(offset: Int, ne: Int = CommandAPDU.maxShortNe) -> CommandAPDU {
        precondition(offset >= 0 && offset <= 0x7FFF, "offset out of range")
        return CommandAPDU(ins: 0xB0, p1: UInt8(offset >> 8), p2: UInt8(offset & 0xFF), ne: ne)
    }

    /// GET CHALLENGE of `count` bytes.
    public static func getChallenge(_ count: Int = 8) -> CommandAPDU {
        CommandAPDU(ins: 0x84, p1: 0x00, p2: 0x00, ne: count)
    }
}

/// The file identifiers of the eID card's master file (BSI TR-03110-3, appendix A.1.2).
public enum EIDFile {
    public static let cardAccess: UInt16 = 0x011C
    public static let cardAccessShortID: UInt8 = 0x1C
    public static let cardSecurity: UInt16 = 0x011D
    public static let cardSecurityShortID: UInt8 = 0x1D
    public static let chipSecurity: UInt16 = 0x011B
    public static let eIDApplicationID: [UInt8] = [0xE8, 0x07, 0x04, 0x00, 0x7F, 0x00, 0x07, 0x03, 0x02]
}

extension CardChannel {
    /// Reads a whole elementary file by short file identifier: the first READ BINARY asks for
    /// as much as the channel allows; further reads continue where the data stopped.
    public func readFile(shortFileID sfi: UInt8) throws -> [UInt8] {
        let first = try transmit(CardCommand.readBinary(
            shortFileID: sfi, ne: supportsExtendedLength ? CommandAPDU.maxExtendedNe : CommandAPDU.maxShortNe))
        guard first.isSuccess || first.statusWord.rawValue == 0x6282 else {
            throw CardError.statusWord(first.statusWord)
        }
        var content = first.data
        // A TLV-encoded file tells its own length; read on only while it says more is there.
        while first.statusWord.isSuccess, let total = TLV.declaredLength(content), content.count < total {
            guard content.count <= 0x7FFF else { throw CardError.malformedResponse("file longer than 32 KiB") }
            let next = try transmit(CardCommand.readBinary(offset: content.count, ne: min(total - content.count, 256)))
            guard next.isSuccess || next.statusWord.rawValue == 0x6282 else {
                throw CardError.statusWord(next.statusWord)
            }
            guard !next.data.isEmpty else { break }
            content += next.data
        }
        return content
    }
}

extension TLV {
    /// The total encoded length (header plus value) that the first TLV header in `bytes`
    /// announces, or nil when the header itself is incomplete or malformed.
    public static func declaredLength(_ b: [UInt8]) -> Int? {
        var o = 0
        guard o < b.count else { return nil }
        if b[o] & 0x1F == 0x1F {
            o += 1
            while o < b.count && b[o] & 0x80 != 0 { o += 1 }
        }
        o += 1
        guard o < b.count else { return nil }
        let first = b[o]
        o += 1
        if first < 0x80 { return o + Int(first) }
        let n = Int(first & 0x7F)
        guard n >= 1, n <= 3, o + n <= b.count else { return nil }
        var len = 0
        for i in 0..<n { len = len << 8 | Int(b[o + i]) }
        return o + n + len
    }
}
