import OrderedJSON

/// The phone's UDP announcement (TR-03112-6 discovery, as AusweisApp sends it about once a second):
/// `{"msg":"REMOTE_IFD","IFDName","IFDID","port","SupportedAPI":["IFDInterface_WebSocket_v2"],"addresses",
/// "pairing"}`. `addresses` is left out when the phone listens on every interface (the client then uses
/// the sender's address).
public struct PhoneAnnouncement: Equatable, Sendable {
    public var ifdName: String
    /// The IFDID: hex SHA-256 of the phone's certificate, or (older versions) its PEM text.
    public var ifdID: String
    public var port: Int
    public var addresses: [String]
    public var pairing: Bool

    public init(ifdName: String, ifdID: String, port: Int, addresses: [String], pairing: Bool) {
        self.ifdName = ifdName
        self.ifdID = ifdID
        self.port = port
        self.addresses = addresses
        self.pairing = pairing
    }

    public var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("msg", .string("REMOTE_IFD")), ("IFDName", .string(ifdName)), ("IFDID", .string(ifdID)),
            ("port", .integer(port)), ("SupportedAPI", .array([.string(PhoneSession.supportedProtocol)])),
        ]
        if !addresses.isEmpty { members.append(("addresses", .array(addresses.map { .string($0) }))) }
        members.append(("pairing", .bool(pairing)))
        return .object(members)
    }
}
