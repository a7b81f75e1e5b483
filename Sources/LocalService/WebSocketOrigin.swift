/// Which web pages may use the SDK WebSocket, by the `Origin` header of their upgrade request:
/// none by default (a request without `Origin` is an SDK client, not a page), and those whose
/// Origin a regular expression finds a match in, as AusweisApp 2.5 reads
/// `AUSWEISAPP_WEBSOCKET_ORIGIN` (a match anywhere in the Origin; anchor it with ^ and $).
public struct WebSocketOrigin: Sendable {
    /// The expression as given (nil: no page is allowed).
    public let pattern: String?

    /// nil when `pattern` is not a regular expression.
    public init?(pattern: String?) {
        if let pattern, !pattern.isEmpty {
            guard (try? Regex(pattern)) != nil else { return nil }
            self.pattern = pattern
        } else {
            self.pattern = nil
        }
    }

    public static let none = WebSocketOrigin(pattern: nil)!

    /// Whether an upgrade with `origin` (nil: no Origin header) may connect.
    public func allows(_ origin: String?) -> Bool {
        guard let origin else { return true }
        guard let pattern, let regex = try? Regex(pattern) else { return false }
        return origin.firstMatch(of: regex) != nil
    }
}
