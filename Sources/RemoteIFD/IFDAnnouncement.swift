import EIDCrypto
import OrderedJSON
import SmartCard

/// A phone's UDP announcement (REMOTE_IFD, about once a second to port 24727 while AusweisApp's
/// card reader mode is open): its name, IFDID, port, protocol versions, addresses and whether it
/// waits for pairing.
public struct IFDAnnouncement: Equatable, Sendable {
    public var name: String
    /// Lower-case hex SHA-256 of the phone's certificate (older versions announce the certificate
    /// as PEM: its hash is taken here).
    public var ifdID: String
    public var port: Int
    public var supportedAPIs: [String]
    /// wss:// URLs; the sender's address with `port` when the announcement names none.
    public var addresses: [String]
    public var pairing: Bool

    /// Whether the phone speaks the protocol version eid speaks.
    public var isSupported: Bool { supportedAPIs.contains(IFDProtocol.v2) }

    /// Reads a datagram from `sender` (an IP address as text); nil for anything that is not a
    /// well-formed announcement.
    public init?(datagram: [UInt8], sender: String) {
        guard let value = try? JSONValue(parsing: datagram, limits: JSONLimits(maxBytes: 16 * 1024, maxDepth: 3)),
            value["msg"]?.string == "REMOTE_IFD",
            let name = value["IFDName"]?.string, !name.isEmpty,
            let rawID = value["IFDID"]?.string, let ifdID = Self.ifdID(rawID),
            case .integer(let port)? = value["port"], (1...65535).contains(port),
            case .array(let apis)? = value["SupportedAPI"], !apis.isEmpty
        else { return nil }
        let supported = apis.compactMap(\.string)
        guard supported.count == apis.count else { return nil }
        switch value["pairing"] {
        case nil: pairing = false
        case .bool(let b)?: pairing = b
        default: return nil
        }
        switch value["addresses"] {
        case nil, .null?:
            addresses = [Self.url(host: sender, port: port)]
        case .array(let list)?:
            let urls = list.compactMap(\.string).filter(Self.isWebSocketURL)
            guard urls.count == list.count, !urls.isEmpty else { return nil }
            addresses = urls
        default: return nil
        }
        self.name = name
        self.ifdID = ifdID
        self.port = port
        supportedAPIs = supported
    }

    /// The IFDID as hex SHA-256: taken as it is when it is 64 hex digits, hashed when it is a PEM
    /// certificate.
    static func ifdID(_ raw: String) -> String? {
        if raw.utf8.count == 64, let bytes = [UInt8](hex: raw), bytes.count == 32 { return raw.lowercased() }
        guard raw.contains("-----BEGIN CERTIFICATE-----"), let der = PEM.decodeCertificate(raw) else { return nil }
        return try? PairedDevice.ifdID(certificate: der)
    }

    static func url(host: String, port: Int) -> String {
        host.contains(":") ? "wss://[\(host)]:\(port)" : "wss://\(host):\(port)"
    }

    /// wss://host:port with a host and a port.
    static func isWebSocketURL(_ text: String) -> Bool {
        guard text.hasPrefix("wss://") else { return false }
        let rest = text.dropFirst(6).prefix { $0 != "/" }
        guard let colon = rest.lastIndex(of: ":"), colon != rest.startIndex,
            let port = Int(rest[rest.index(after: colon)...]), (1...65535).contains(port)
        else { return false }
        return true
    }
}
