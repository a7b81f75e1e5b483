/// The result parameters appended to the refresh or communication-error address (docs/protocol.md, "Result on
/// the refresh address"): `ResultMajor=ok`, or `ResultMajor=error&ResultMinor=<suffix>` with one of exactly
/// five suffixes, optionally `&ResultMessage=<text>`.
public enum RefreshResult: Equatable, Sendable {
    case ok
    case error(Minor, message: String? = nil)

    /// The five short ResultMinor values a browser redirect carries.
    public enum Minor: String, Sendable, CaseIterable {
        /// TcToken, TLS-1 or TLS-2 problems; a certificate hash not in the description.
        case trustedChannelEstablishmentFailed
        /// Network or refresh problems; always on the CommunicationErrorAddress.
        case communicationError
        /// The user cancelled (or removed the card).
        case cancellationByUser
        /// Any other error that came from the eID server (its StartPAOSResponse).
        case serverError
        /// Any other error found locally.
        case clientError
    }

    /// The parameters for a workflow's result ("Result on the refresh address"): `fromServer` when the result
    /// is the eID server's (its StartPAOSResponse carried an error), which AusweisApp then reports instead of
    /// the local one unless the user cancelled.
    public init(_ result: ECardAPIResult, fromServer: Bool) {
        guard result.major == .error else {
            self = .ok
            return
        }
        switch result.minor {
        case .cancellationByUser, .readerCancellationByUser: self = .error(.cancellationByUser)
        case .trustedChannelEstablishmentFailed: self = .error(.trustedChannelEstablishmentFailed)
        case .communicationError, .dispatcherCommunicationError: self = .error(.communicationError)
        default: self = .error(fromServer ? .serverError : .clientError)
        }
    }

    /// The query text, without `?` or `&` in front.
    public var query: String {
        switch self {
        case .ok: return "ResultMajor=ok"
        case .error(let minor, let message):
            var query = "ResultMajor=error&ResultMinor=" + minor.rawValue
            if let message { query += "&ResultMessage=" + Self.percentEncoded(message) }
            return query
        }
    }

    /// `url` with the parameters added after any query it already has (and before a fragment).
    public func appended(to url: String) -> String {
        var base = Substring(url)
        var fragment = ""
        if let hash = base.firstIndex(of: "#") {
            fragment = String(base[hash...])
            base = base[..<hash]
        }
        let separator: String
        if let question = base.firstIndex(of: "?") {
            separator = base.index(after: question) == base.endIndex || base.hasSuffix("&") ? "" : "&"
        } else {
            separator = "?"
        }
        return String(base) + separator + query + fragment
    }

    /// RFC 3986 percent-encoding of everything but the unreserved characters.
    static func percentEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF")
                out += "%" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
            }
        }
        return out
    }
}
