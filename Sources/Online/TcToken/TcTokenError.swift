/// Why a TcToken was refused (docs/protocol.md, "TcToken validation"): one case per rule, naming the element.
/// Values from the token are never quoted (the PSK is a secret, the rest comes from anyone).
public enum TcTokenError: Error, Equatable, Sendable {
    /// Rule 1: not XML eid accepts (not well-formed, a DTD, too large or deep).
    case malformedXML(XMLError)
    /// The root element is not `TCTokenType`.
    case wrongRootElement
    /// Rule 2: a mandatory element (ServerAddress, SessionIdentifier, RefreshAddress, Binding) is
    /// missing.
    case missingElement(String)
    /// Rule 2: a mandatory element is empty.
    case emptyElement(String)
    /// An element that must occur once occurs more than once, so which one counts is unclear.
    case duplicateElement(String)
    /// Rule 3: Binding is not `urn:liberty:paos:2006-08`.
    case unsupportedBinding
    /// Rule 4: PathSecurity-Protocol is present and not `urn:ietf:rfc:4279`.
    case unsupportedPathSecurityProtocol
    /// Rule 5: ServerAddress, RefreshAddress or CommunicationErrorAddress is not an absolute
    /// http(s) URL with a host.
    case invalidURL(String)
    /// Rule 5: ServerAddress or RefreshAddress is not https.
    case notHTTPS(String)
    /// Rule 6: the PSK is not even-length hexadecimal, or is empty or longer than 256 bytes.
    case invalidPSK
    /// The SessionIdentifier is longer than 256 bytes or has control characters (it is the
    /// TLS-PSK identity).
    case invalidSessionIdentifier
    /// Rule 7: without a PSK (attached eID server) the ServerAddress must be same-origin with the
    /// tcTokenURL.
    case attachedServerNotSameOrigin
}

extension TcTokenError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .malformedXML(let error): return "the TcToken is not usable XML: \(error)"
        case .wrongRootElement: return "the TcToken's root element is not TCTokenType"
        case .missingElement(let name): return "the TcToken has no \(name)"
        case .emptyElement(let name): return "the TcToken's \(name) is empty"
        case .duplicateElement(let name): return "the TcToken has more than one \(name)"
        case .unsupportedBinding: return "the TcToken's Binding is not urn:liberty:paos:2006-08 (PAOS)"
        case .unsupportedPathSecurityProtocol:
            return "the TcToken's PathSecurity-Protocol is not urn:ietf:rfc:4279 (TLS-PSK)"
        case .invalidURL(let name): return "the TcToken's \(name) is not an absolute http(s) URL"
        case .notHTTPS(let name): return "the TcToken's \(name) is not an https URL"
        case .invalidPSK: return "the TcToken's PSK is not 1 to 256 bytes of hexadecimal"
        case .invalidSessionIdentifier:
            return "the TcToken's SessionIdentifier is longer than 256 bytes or has control characters"
        case .attachedServerNotSameOrigin:
            return "the TcToken has no PSK and its ServerAddress is not on the tcTokenURL's origin"
        }
    }

    /// The result AusweisApp gives for every TcToken problem (docs/protocol.md, "TcToken validation", rule 8).
    public var result: ECardAPIResult { .error(.trustedChannelEstablishmentFailed) }
}
