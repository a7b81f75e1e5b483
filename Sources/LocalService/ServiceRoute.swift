import FoundationEssentials

/// Where a request to the local service goes, decided from its method, target and `Host` alone
/// (no state), as AusweisApp's web service routes: `/eID-Client` with `tcTokenURL` (an
/// activation) or `Status` (query keys in any case), OPTIONS and HEAD there (CORS preflight),
/// `/eID-Kernel` (the SDK WebSocket), `GET /favicon.ico` (a browser's tab icon), everything else
/// 404.
public enum ServiceRoute: Equatable, Sendable {
    /// `?Status` (text/plain) or `?Status=json` (the INFO object).
    case status(json: Bool)
    /// `?tcTokenURL=…`, decoded.
    case activation(tcTokenURL: String)
    /// OPTIONS or HEAD on `/eID-Client`: 204 with the CORS headers.
    case preflight
    /// `/eID-Kernel` (a WebSocket upgrade that was not taken ends here).
    case sdk
    /// `GET /favicon.ico`: 200 with the icon (AusweisApp2 1.26.2 serves its own).
    case favicon
    /// Not served.
    case refused(ServiceRefusal)

    /// The longest request target taken; a longer one is refused with 414.
    public static let maximumTargetLength = 8192

    /// Routes a request. `host` is the `Host` header (nil when missing); `port` the port the
    /// connection came in on.
    public init(method: String, target: String, host: String?, port: Int) {
        guard target.utf8.count <= Self.maximumTargetLength else {
            self = .refused(.targetTooLong)
            return
        }
        guard HostCheck.allows(host, port: port) else {
            self = .refused(.foreignHost)
            return
        }
        guard let components = URLComponents(string: target), components.scheme == nil, components.host == nil else {
            self = .refused(.badRequest("The request target is not a valid path and query."))
            return
        }
        switch components.path {
        case "/eID-Client":
            switch method {
            case "OPTIONS", "HEAD": self = .preflight
            case "GET": self = Self.client(query: components.queryItems ?? [])
            default: self = .refused(.methodNotAllowed)
            }
        case "/eID-Kernel":
            self = .sdk
        case "/favicon.ico" where method == "GET":
            self = .favicon
        default:
            self = .refused(.notFound)
        }
    }

    /// `GET /eID-Client?…`: Status before tcTokenURL; neither is 404 (AusweisApp 1.26.2).
    private static func client(query: [URLQueryItem]) -> ServiceRoute {
        func values(_ key: String) -> [String?] {
            query.filter { $0.name.lowercased() == key }.map(\.value)
        }
        let status = values("status")
        if let value = status.first {
            return .status(json: value?.lowercased() == "json")
        }
        let urls = values("tctokenurl")
        guard !urls.isEmpty else { return .refused(.notFound) }
        guard urls.count == 1 else { return .refused(.badRequest("The request has more than one tcTokenURL.")) }
        guard let url = urls[0], !url.isEmpty else { return .refused(.badRequest("The tcTokenURL is empty.")) }
        return .activation(tcTokenURL: url)
    }
}

/// Why a request is not served, each with its HTTP status.
public enum ServiceRefusal: Equatable, Sendable {
    case notFound
    case badRequest(String)
    case methodNotAllowed
    case targetTooLong
    /// A `Host` other than 127.0.0.1, localhost or [::1] with the service's port: a page whose
    /// name was rebound to 127.0.0.1 (DNS rebinding).
    case foreignHost
    /// A WebSocket upgrade with an `Origin` header: a web page, not an SDK client.
    case originPresent
    /// Another SDK client is connected.
    case sdkClientPresent
    /// Another workflow runs.
    case busy

    public var status: Int {
        switch self {
        case .notFound: return 404
        case .badRequest: return 400
        case .methodNotAllowed: return 405
        case .targetTooLong: return 414
        case .foreignHost, .originPresent: return 403
        case .sdkClientPresent: return 429
        case .busy: return 409
        }
    }

    /// The sentence of the error page.
    public var sentence: String {
        switch self {
        case .notFound: return "There is nothing at this address."
        case .badRequest(let why): return why
        case .methodNotAllowed: return "This method is not served here."
        case .targetTooLong: return "The request target is too long."
        case .foreignHost: return "Only requests to 127.0.0.1, localhost or [::1] with this port are served."
        case .originPresent: return "Web pages may not connect to the SDK."
        case .sdkClientPresent: return "Another SDK client is connected."
        case .busy: return "Another workflow is running."
        }
    }
}

/// The `Host` check against DNS rebinding: only the loopback names, with the port.
public enum HostCheck {
    public static func allows(_ host: String?, port: Int) -> Bool {
        guard let host = host?.lowercased() else { return false }
        return ["127.0.0.1", "localhost", "[::1]"].contains { host == "\($0):\(port)" }
    }
}
