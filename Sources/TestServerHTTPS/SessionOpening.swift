/// What became of a request for a new session (`PAOSSessionHandler.openSession`), which the
/// front end answers with the TcToken, 400 or 503.
public enum SessionOpening: Equatable, Sendable {
    /// The session runs and waits for StartPAOS.
    case opened
    /// A fault name is unknown (400).
    case unknownFault
    /// As many sessions as allowed are running: 503 with Retry-After `retryAfter` seconds.
    case busy(retryAfter: Int)
}
