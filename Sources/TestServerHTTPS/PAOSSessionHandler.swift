/// The eID server session behind the PAOS endpoint, as the HTTPS front end sees it: transport
/// free, one call per PAOS POST. The front end owns TLS, HTTP, session ids, PSKs and the
/// transport faults; the handler owns the PAOS exchange and the session results.
/// Called from several threads at once (one per connection); never on an event loop.
public protocol PAOSSessionHandler: Sendable {
    /// A new session `id` for a TcToken, with the fault names the front end does not handle
    /// itself (see `TransportFault`). Opens nothing when a name is unknown or too many sessions
    /// are running.
    func openSession(id: String, faults: [String]) -> SessionOpening

    /// Whether session `sessionID` is still running (the front end forgets the PSKs and
    /// transport faults of sessions that are not).
    func isRunning(sessionID: String) -> Bool

    /// The answer to one PAOS POST of session `sessionID` (the client's SOAP message in `body`):
    /// the HTTP status and the server's next SOAP message (or an error text).
    func respond(sessionID: String, body: [UInt8]) -> PAOSHTTPReply

    /// The last finished session as JSON (`{"ok":…,"read":{…},"error":…}`), for `GET /result`.
    func resultJSON() -> [UInt8]

    /// The result of session `sessionID` as JSON, once it has finished; nil while it runs or
    /// when there is no such session. For `GET /result?session=ID`, which clients running
    /// several sessions side by side ask instead of `/result`.
    func resultJSON(sessionID: String) -> [UInt8]?

    /// Who logged in with session `sessionID` (nil: the last finished session): the name read
    /// from the card ("ERIKA MUSTERMANN"), or nil when it failed, runs, or read no name. For the
    /// refresh page.
    func personName(sessionID: String?) -> String?
}

extension PAOSSessionHandler {
    /// A handler that keeps no results per session.
    public func resultJSON(sessionID: String) -> [UInt8]? { nil }

    /// A handler that reads no names.
    public func personName(sessionID: String?) -> String? { nil }
}

/// A PAOS answer: HTTP status and body (200 bodies are SOAP, application/vnd.paos+xml), or no
/// answer at all: the connection is closed (the session library's `abort_mid_transmit`).
/// (EIDTestServer's `PAOSReply` maps onto it: `.message`/`.malformed` → 200 with `body`,
/// `.closeConnection` → `closeConnection`.)
public struct PAOSHTTPReply: Sendable, Equatable {
    public var status: Int
    public var body: [UInt8]
    public var closeConnection: Bool

    public init(status: Int, body: [UInt8]) {
        self.status = status
        self.body = body
        closeConnection = false
    }

    /// Close the connection without answering.
    public static let closeConnection: PAOSHTTPReply = {
        var reply = PAOSHTTPReply(status: 0, body: [])
        reply.closeConnection = true
        return reply
    }()
}
