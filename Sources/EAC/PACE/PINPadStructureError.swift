/// Why bytes are not a PC/SC Part 10 AMD1 PIN-pad structure (EstablishPACEChannel's InputData,
/// OutputData or the reader's answer around it): nothing of such bytes is used.
public enum PINPadStructureError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bytes end inside `field`.
    case truncated(field: String)
    /// Bytes follow the structure's last field.
    case trailingBytes(count: Int)
    /// `field` is longer than its length field can say (a CHAT over 255 bytes, a certificate
    /// description over 65535).
    case fieldTooLong(field: String, length: Int)
    /// The PasswordID is none of MRZ (1), CAN (2), PIN (3), PUK (4).
    case unknownPasswordID(UInt8)
    /// A CAR is not printable ASCII (ISO 8859-1 letters and digits, TR-03110-3 A.6.1).
    case carNotPrintable(field: String)

    public var description: String {
        switch self {
        case .truncated(let field): return "the PIN-pad structure ends inside \(field)"
        case .trailingBytes(let n): return "\(n) byte(s) follow the PIN-pad structure"
        case .fieldTooLong(let field, let n): return "\(field) has \(n) bytes, more than its length field can say"
        case .unknownPasswordID(let id): return "PasswordID \(id) is none of MRZ, CAN, PIN, PUK"
        case .carNotPrintable(let field): return "\(field) is not a printable certification authority reference"
        }
    }
}
