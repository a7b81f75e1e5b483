import Online

/// How the authentication ended: the result for the AUTH message and the refresh URL, the
/// reason when it failed, and whether the result is the server's.
public struct AuthOutcome: Equatable, Sendable {
    public var result: ECardAPIResult
    /// Why it failed; nil on success.
    public var reason: FailureReason?
    /// The result came from the server's StartPAOSResponse.
    public var fromServer: Bool

    public init(result: ECardAPIResult, reason: FailureReason?, fromServer: Bool) {
        self.result = result
        self.reason = reason
        self.fromServer = fromServer
    }

    public static let ok = AuthOutcome(result: .ok, reason: nil, fromServer: false)

    /// A local failure.
    public init(failure reason: FailureReason) {
        self.init(result: reason.result, reason: reason, fromServer: false)
    }

    /// AusweisApp's choice (docs/protocol.md, "Result on the refresh address"): the local status when the
    /// user cancelled or the server's result was ok; the server's result otherwise.
    static func combining(local: FailureReason?, server: DSSResult) -> AuthOutcome {
        if let local, local.isCancellation || server.major == .ok {
            return AuthOutcome(failure: local)
        }
        if server.major == .error {
            // The reason stays the local one when there is one: it says more than the server's echo.
            // The result is the server's as AusweisApp reports it (`reportedByClient`).
            return AuthOutcome(
                result: server.ecardAPIResult.reportedByClient,
                reason: local ?? .authServerResult(server.ecardAPIResult), fromServer: true)
        }
        return AuthOutcome(result: server.ecardAPIResult, reason: nil, fromServer: true)
    }

    /// The end after a Transmit batch stopped at a status word the server does not accept
    /// (`reason`): AusweisApp's status Card_Unexpected_Transmit_Status is its first error, and
    /// its first error stays the AUTH result whatever the server ends with (AbstractState's
    /// updateStatus keeps it, StateTransmit set it); the browser's ResultMinor is the local
    /// clientError after the server's ok, the server's after its error (StateRedirectBrowser
    /// takes the StartPAOSResponse result when it is not ok).
    static func transmitStopped(_ reason: FailureReason, server: DSSResult) -> AuthOutcome {
        AuthOutcome(result: reason.result, reason: reason, fromServer: server.major != .ok)
    }
}
