/// Why a command APDU cannot be built: a length or parameter that no encoding of ISO/IEC 7816-4
/// carries. The command builders throw it instead of stopping the program, so that a size that
/// came from outside (a server's signature, a certificate, a file length a card announced) ends
/// the operation with an error.
public enum CommandAPDUError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The data field has more than 65535 bytes (the most an extended length Lc counts).
    case dataTooLong(count: Int)
    /// Ne is not within 1...65536.
    case expectedLengthOutOfRange(Int)
    /// A short file identifier outside 1...30.
    case shortFileIDOutOfRange(UInt8)
    /// A READ BINARY offset outside 0...32767 (the 15 bits of P1-P2).
    case offsetOutOfRange(Int)

    public var description: String {
        switch self {
        case .dataTooLong(let count):
            return "a command would carry \(count) bytes of data, more than the 65535 a card accepts"
        case .expectedLengthOutOfRange(let ne):
            return "a command would ask for \(ne) response bytes, not within 1 to 65536"
        case .shortFileIDOutOfRange(let sfi): return "short file identifier \(sfi) is not within 1 to 30"
        case .offsetOutOfRange(let offset): return "file offset \(offset) is beyond the 32767 READ BINARY reaches"
        }
    }
}
