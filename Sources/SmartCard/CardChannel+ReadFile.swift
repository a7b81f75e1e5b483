extension CardChannel {
    /// Reads a whole elementary file by short file identifier: the first READ BINARY asks for
    /// as much as the channel allows; further reads continue where the data stopped. 9000 and
    /// 6282 (end of file) carry data; any other status word throws `CardError.statusWord`.
    public func readFile(shortFileID sfi: UInt8) throws -> [UInt8] {
        let first = try transmit(
            CommandAPDU.readBinary(
                shortFileID: sfi, ne: supportsExtendedLength ? CommandAPDU.maxExtendedNe : CommandAPDU.maxShortNe))
        guard first.isSuccess || first.statusWord.rawValue == 0x6282 else {
            throw CardError.statusWord(first.statusWord)
        }
        var content = first.data
        // A TLV-encoded file tells its own length; read on only while it says more is there.
        while first.statusWord.isSuccess, let total = TLV.declaredLength(content), content.count < total {
            guard content.count <= 0x7FFF else { throw CardError.malformedResponse("file longer than 32 KiB") }
            let next = try transmit(CommandAPDU.readBinary(offset: content.count, ne: min(total - content.count, 256)))
            guard next.isSuccess || next.statusWord.rawValue == 0x6282 else {
                throw CardError.statusWord(next.statusWord)
            }
            guard !next.data.isEmpty else { break }
            content += next.data
        }
        return content
    }
}
