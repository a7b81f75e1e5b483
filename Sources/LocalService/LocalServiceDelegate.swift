/// What the local service asks of whoever runs the workflows (Faces' `ServiceSessions`, wired
/// by the executable). The service itself is transport only: it parses and checks requests,
/// answers HTTP, and carries SDK messages over the WebSocket; every decision about workflows is
/// the delegate's.
public protocol LocalServiceDelegate: Sendable {
    /// The answer to `GET /eID-Client?Status` (`json`: `?Status=json`, the INFO object).
    func status(json: Bool) -> String

    /// A browser activation with the query's tcTokenURL (decoded). `.started`: `finish` is
    /// called once, from any thread, with the final answer; the browser has `102 Processing`
    /// meanwhile.
    func activate(tcTokenURL: String, finish: @escaping @Sendable (ActivationAnswer) -> Void) -> ActivationStart

    /// Whether a WebSocket SDK client may connect now (AusweisApp: one at a time).
    var acceptsSDKClient: Bool { get }

    /// A new SDK client over the WebSocket. `send` writes one text message, `close` ends the
    /// connection; both may be called from any thread. Nil: refused (another client came first).
    func openSDKClient(send: @escaping @Sendable (String) -> Void, close: @escaping @Sendable () -> Void)
        -> (any SDKClient)?
}

/// One connected SDK client, as the session logic sees it.
public protocol SDKClient: Sendable {
    /// One text message. The bytes are lent: the callee copies what it keeps, the caller zeroes
    /// them afterwards (a SET_PIN holds a PIN).
    func receive(_ message: UnsafeMutableBufferPointer<UInt8>)
    /// The connection has ended (closed by the client, by an error, or by the server); called at
    /// the client's close frame and again when the socket ends: only the first call counts.
    func closed()
}

/// How a browser activation starts.
public enum ActivationStart: Sendable, Equatable {
    /// The workflow runs; the final answer follows through `finish`.
    case started
    /// Another workflow runs (`409 Conflict`).
    case busy
    /// Not started: this is the answer.
    case refused(ActivationAnswer)
}

/// The final answer to a browser activation.
public enum ActivationAnswer: Sendable, Equatable {
    /// `303 See Other` to the refresh address with the result, or the CommunicationErrorAddress.
    case seeOther(location: String)
    /// An HTML error page, as AusweisApp answers when there is no address to send the browser to.
    case failure(ActivationFailure)
}

/// Why a browser activation ends on an error page rather than at the service (AusweisApp's
/// StateRedirectBrowser without a refresh address).
public enum ActivationFailure: Sendable, Equatable {
    /// No usable TcToken came from the tcTokenURL (`404 Not Found`), with the sentence of why (an
    /// HTTP status, a refused TLS connection: TR-03124-2 D_16 wants it readable on the page).
    case tcTokenNotFound(String)
    /// The request or the tcTokenURL is unusable, a redirect is not https, or no address to
    /// continue at came of the TcToken (`400 Bad Request`).
    case badRequest(String)
    /// Something failed before the TcToken was read (`500 Internal Server Error`).
    case internalError(String)
    /// No one can answer the questions of the workflow (`503 Service Unavailable`).
    case noAnswerer(String)
}
