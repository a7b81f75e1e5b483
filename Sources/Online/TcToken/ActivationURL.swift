import FoundationEssentials

/// The URL `eid auth` is given (docs/protocol.md, "Activation URL"): the tcTokenURL itself, or an
/// activation URL a browser would open, from which the `tcTokenURL` query parameter is taken:
/// `http://127.0.0.1:24727/eID-Client?tcTokenURL=…` (also `localhost` and `[::1]`) or
/// `eid://…?tcTokenURL=…`.
public enum ActivationURL {
    /// The port of the local eID client (TR-03124-1), fixed.
    public static let localPort = 24727

    /// The tcTokenURL the argument names; it must be https (docs/protocol.md, "TcToken fetch").
    public static func tcTokenURL(from argument: String) throws(ActivationURLError) -> String {
        let text = argument.trimmingXMLWhitespace()
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            throw .invalidURL
        }
        let tcTokenURL: String
        switch scheme {
        case "eid":
            tcTokenURL = try parameter(components)
        case "http" where isLocalClient(components):
            tcTokenURL = try parameter(components)
        case "https":
            tcTokenURL = text
        default:
            throw .notAnActivationURL
        }
        guard let origin = WebOrigin(url: tcTokenURL) else { throw .invalidTcTokenURL }
        guard origin.isHTTPS else { throw .tcTokenURLNotHTTPS }
        return tcTokenURL
    }

    /// Whether an SDK's RUN_AUTH may start with `tcTokenURL`: a URL with a host (AusweisApp's
    /// check before any workflow starts; the scheme is the workflow's to refuse).
    public static func isUsableSDKTcTokenURL(_ tcTokenURL: String) -> Bool {
        guard let components = URLComponents(string: tcTokenURL), let host = components.host else { return false }
        return !host.isEmpty
    }

    /// The activation URL of the local eID client that names `tcTokenURL` (percent-encoded as a
    /// whole): what an SDK's RUN_AUTH stands for, so that its tcTokenURL goes through the same
    /// checks as a browser's (an http one ends in trustedChannelEstablishmentFailed).
    public static func localActivationURL(tcTokenURL: String) -> String {
        // RFC 3986 2.3: the unreserved characters stay, every other byte of the UTF-8 is %XX.
        let hex = Array("0123456789ABCDEF".utf8)
        var encoded: [UInt8] = []
        for byte in tcTokenURL.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                encoded.append(byte)
            default:
                encoded += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        let query = String(decoding: encoded, as: UTF8.self)
        return "http://127.0.0.1:\(localPort)/eID-Client?tcTokenURL=\(query)"
    }

    private static func isLocalClient(_ components: URLComponents) -> Bool {
        let host = components.host?.lowercased() ?? ""
        return ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host) && components.port == localPort
            && components.path == "/eID-Client"
    }

    private static func parameter(_ components: URLComponents) throws(ActivationURLError) -> String {
        let values = (components.queryItems ?? []).filter { $0.name == "tcTokenURL" }
        guard values.count <= 1 else { throw .duplicateTcTokenURL }
        guard let value = values.first?.value, !value.isEmpty else { throw .missingTcTokenURL }
        return value
    }
}

/// Why no tcTokenURL could be taken from the argument (AusweisApp:
/// Workflow_Wrong_Parameter_Invocation, result al/common#communicationError, except a
/// non-https tcTokenURL: dp#trustedChannelEstablishmentFailed).
public enum ActivationURLError: Error, Equatable, Sendable {
    /// Not a URL at all.
    case invalidURL
    /// Neither an https tcTokenURL nor an activation URL (http://127.0.0.1:24727/eID-Client?…,
    /// eid://…).
    case notAnActivationURL
    /// The activation URL has no (or an empty) tcTokenURL parameter.
    case missingTcTokenURL
    /// The activation URL has more than one tcTokenURL parameter.
    case duplicateTcTokenURL
    /// The tcTokenURL is not an absolute URL with a host.
    case invalidTcTokenURL
    /// The tcTokenURL is not https.
    case tcTokenURLNotHTTPS

    public var result: ECardAPIResult {
        self == .tcTokenURLNotHTTPS ? .error(.trustedChannelEstablishmentFailed) : .error(.communicationError)
    }
}

extension ActivationURLError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .invalidURL: return "not a URL"
        case .notAnActivationURL:
            return "neither an https tcTokenURL nor an activation URL (http://127.0.0.1:24727/eID-Client?tcTokenURL=…)"
        case .missingTcTokenURL: return "the activation URL has no tcTokenURL parameter"
        case .duplicateTcTokenURL: return "the activation URL has more than one tcTokenURL parameter"
        case .invalidTcTokenURL: return "the tcTokenURL is not an absolute URL with a host"
        case .tcTokenURLNotHTTPS: return "the tcTokenURL is not https"
        }
    }
}
