/// Builders for the ISO/IEC 7816-4 commands that every layer uses, each with what its status
/// words mean for it. The commands of a protocol (MSE:Set AT, GENERAL AUTHENTICATE, RESET RETRY
/// COUNTER) live with their protocol, in the same shape (`CommandAPDU+PACE.swift` in EAC).
/// Every builder throws `CommandAPDUError` rather than stop the program on a length or parameter
/// no APDU carries.
extension CommandAPDU {
    /// SELECT by file identifier (P1 = 02, elementary file under the current DF; no response data).
    ///
    /// | SW | meaning for this command |
    /// | --- | --- |
    /// | 9000 | the file is selected |
    /// | 6A82 | no such file under the current DF |
    /// | 6982 | the file's access rule is not satisfied (e.g. needs PACE) |
    /// | 6A86 | P1-P2 not supported |
    public static func selectFile(_ fileID: UInt16) throws(CommandAPDUError) -> CommandAPDU {
        try CommandAPDU(ins: 0xA4, p1: 0x02, p2: 0x0C, data: [UInt8(fileID >> 8), UInt8(fileID & 0xFF)])
    }

    /// SELECT the master file (3F00); status words as for `selectFile(_:)`.
    public static var selectMasterFile: CommandAPDU {
        get throws(CommandAPDUError) { try CommandAPDU(ins: 0xA4, p1: 0x00, p2: 0x0C, data: [0x3F, 0x00]) }
    }

    /// SELECT an application by AID (P1 = 04, no response data).
    ///
    /// | SW | meaning for this command |
    /// | --- | --- |
    /// | 9000 | the application is selected |
    /// | 6A82 | the card has no such application |
    /// | 6982 | the application's access rule is not satisfied (the eID application: TA and CA first) |
    public static func selectApplication(_ aid: [UInt8]) throws(CommandAPDUError) -> CommandAPDU {
        try CommandAPDU(ins: 0xA4, p1: 0x04, p2: 0x0C, data: aid)
    }

    /// READ BINARY of the file with short file identifier `sfi` (1...30), from offset 0..255;
    /// the file becomes the current one.
    ///
    /// | SW | meaning for this command |
    /// | --- | --- |
    /// | 9000 | data read (Ne bytes, or fewer at the end of the file with Le = 00) |
    /// | 6282 | the file ended before Ne bytes (the data is there) |
    /// | 6A82 | no file with this short identifier |
    /// | 6982 | the file's access rule is not satisfied (e.g. EF.CardSecurity before PACE) |
    /// | 6B00 | the offset is beyond the end of the file |
    public static func readBinary(shortFileID sfi: UInt8, offset: UInt8 = 0, ne: Int = CommandAPDU.maxShortNe)
        throws(CommandAPDUError) -> CommandAPDU
    {
        guard sfi >= 1 && sfi <= 30 else { throw .shortFileIDOutOfRange(sfi) }
        return try CommandAPDU(ins: 0xB0, p1: 0x80 | sfi, p2: offset, ne: ne)
    }

    /// READ BINARY of the currently selected file from `offset` (0...32767); status words as for
    /// `readBinary(shortFileID:offset:ne:)`, and 6986 when no file is selected.
    public static func readBinary(offset: Int, ne: Int = CommandAPDU.maxShortNe) throws(CommandAPDUError)
        -> CommandAPDU
    {
        guard offset >= 0 && offset <= 0x7FFF else { throw .offsetOutOfRange(offset) }
        return try CommandAPDU(ins: 0xB0, p1: UInt8(offset >> 8), p2: UInt8(offset & 0xFF), ne: ne)
    }

    /// GET CHALLENGE `00 84 00 00 count` of `count` bytes: 9000 with the random bytes; 6700 for a
    /// length the card does not give. Terminal Authentication's r_PICC is the default 8 bytes.
    public static func getChallenge(_ count: Int = 8) throws(CommandAPDUError) -> CommandAPDU {
        try CommandAPDU(ins: 0x84, p1: 0x00, p2: 0x00, ne: count)
    }
}
