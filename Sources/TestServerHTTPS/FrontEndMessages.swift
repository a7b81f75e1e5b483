/// One complete HTTP request as the front end's routes see it.
public struct FrontEndRequest: Sendable {
    public var method: String
    /// The path without the query, e.g. "/tctoken".
    public var path: String
    /// The query parameters, percent-decoded, in order.
    public var query: [(String, String)]
    /// Header names in lower case.
    public var headers: [(String, String)]
    public var body: [UInt8]
    /// The TLS channel it came on (nil only in unit tests of the routes).
    public var tls: TLSEstablished?

    public init(
        method: String, uri: String, headers: [(String, String)] = [], body: [UInt8] = [],
        tls: TLSEstablished? = nil
    ) {
        self.method = method
        let parts = uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        path = String(parts.first ?? "")
        query = parts.count > 1 ? Self.parseQuery(String(parts[1])) : []
        self.headers = headers.map { ($0.0.lowercased(), $0.1) }
        self.body = body
        self.tls = tls
    }

    public func header(_ name: String) -> String? { headers.first { $0.0 == name.lowercased() }?.1 }
    public func parameter(_ name: String) -> String? { query.first { $0.0 == name }?.1 }

    static func parseQuery(_ query: String) -> [(String, String)] {
        query.split(separator: "&").map { pair in
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (percentDecoded(String(kv[0])), kv.count > 1 ? percentDecoded(String(kv[1])) : "")
        }
    }

    static func percentDecoded(_ text: String) -> String {
        var bytes: [UInt8] = []
        var input = Array(text.utf8)[...]
        while let byte = input.popFirst() {
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), input.count >= 2,
                let value = UInt8(String(decoding: input.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                input = input.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// The front end's answer to one request.
public struct FrontEndResponse: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]
    /// Wait this long before answering (the `slow` fault).
    public var delay: Duration?
    /// Close the connection after this answer.
    public var close = false
    /// Close the connection instead of answering.
    public var abort = false

    public init(status: Int, contentType: String, body: [UInt8], headers: [(String, String)] = []) {
        self.status = status
        self.headers = [("Content-Type", contentType), ("Cache-Control", "no-store")] + headers
        self.body = body
    }

    static func text(_ status: Int, _ text: String) -> FrontEndResponse {
        FrontEndResponse(status: status, contentType: "text/plain; charset=utf-8", body: Array((text + "\n").utf8))
    }

    /// Whether every header name and value is free of CR, LF and NUL, which would end the header
    /// line and let the rest pose as headers or body (response splitting). The routes build
    /// headers from constants and encoded values only; `FrontEndHTTPHandler` sends a 500 instead
    /// of any response that fails this.
    var headersAreSafe: Bool {
        headers.allSatisfy { name, value in
            !(name.utf8.contains { $0 == 13 || $0 == 10 || $0 == 0 }
                || value.utf8.contains { $0 == 13 || $0 == 10 || $0 == 0 })
        }
    }

    /// 503: too many sessions are running; try again in `seconds`.
    static func busy(retryAfter seconds: Int) -> FrontEndResponse {
        var response = FrontEndResponse.text(503, "too many sessions are running: try again in \(seconds) s")
        response.headers.append(("Retry-After", String(seconds)))
        return response
    }
}
