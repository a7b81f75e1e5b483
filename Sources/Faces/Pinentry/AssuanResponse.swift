/// One line a pinentry program answers with: the server responses of the Assuan protocol
/// (GnuPG's "Developing with Assuan", "Server responses"): `OK [text]`, `ERR code [text]`,
/// `D escaped-data`, `S keyword [info]`, `# comment`, `INQUIRE keyword [parameters]`. Parsing is
/// strict: any other line, a control character, or an `ERR` without a number is refused.
///
/// A `D` line may hold the secret; it is never turned into a `String`: the caller decodes its data
/// (`AssuanData`) straight from the locked line buffer.
enum AssuanResponse: Equatable {
    case ok
    /// `code`: a libgpg-error code (source in the top 8 bits, the error in the low 16).
    case error(code: UInt32)
    /// The data starts at this offset of the line (after "D ").
    case data(offset: Int)
    case status(keyword: String)
    case comment
    case inquire(keyword: String)

    /// The GnuPG error in an `ERR` code (without its source).
    enum ErrorKind: Equatable {
        /// GPG_ERR_CANCELED, GPG_ERR_FULLY_CANCELED, GPG_ERR_ASS_CANCELED: the person pressed
        /// Cancel or closed the dialog.
        case cancelled
        /// GPG_ERR_NOT_CONFIRMED: the person chose "No" at CONFIRM.
        case notConfirmed
        /// GPG_ERR_TIMEOUT: the dialog's own timeout (SETTIMEOUT) ran out.
        case timedOut
        case other(UInt32)

        init(code: UInt32) {
            switch code & 0xFFFF {
            case 99, 198, 277: self = .cancelled
            case 114: self = .notConfirmed
            case 62: self = .timedOut
            default: self = .other(code)
            }
        }
    }

    /// Parses one line (without its line feed).
    static func parse(_ line: UnsafeBufferPointer<UInt8>) throws(PinentryError) -> AssuanResponse {
        if line.first == UInt8(ascii: "#") { return .comment }
        guard !line.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { throw .malformedResponse("control character") }
        if line.starts(with: Array("D ".utf8)) { return .data(offset: 2) }
        // Not a D line: no secret in it, so a string is fine from here.
        let text = String(decoding: line, as: UTF8.self)
        let words = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        switch words.first {
        case "OK":
            return .ok
        case "ERR":
            guard words.count >= 2, let code = UInt32(words[1]) else { throw .malformedResponse("ERR without a code") }
            return .error(code: code)
        case "S" where words.count >= 2 && !words[1].isEmpty:
            return .status(keyword: String(words[1]))
        case "INQUIRE" where words.count >= 2 && !words[1].isEmpty:
            return .inquire(keyword: String(words[1]))
        default:
            throw .malformedResponse("unknown response \(String(words.first ?? "").prefix(16))")
        }
    }
}
