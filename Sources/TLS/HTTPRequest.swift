/// One HTTP request. Headers are the caller's (PAOS sets its own: docs/protocol.md, "PAOS binding").
public struct HTTPRequest: Sendable, Equatable {
    public enum Method: Sendable, Equatable {
        case get
        /// The headers only (the refresh address's check, which must not trigger the service's page).
        case head
        case post(body: [UInt8])
    }

    public var url: String
    public var method: Method
    public var headers: [HTTPHeader]

    public init(url: String, method: Method = .get, headers: [HTTPHeader] = []) {
        self.url = url
        self.method = method
        self.headers = headers
    }
}

/// A header field, as sent or received (names compared without regard to case).
public struct HTTPHeader: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
