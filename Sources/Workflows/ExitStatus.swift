/// The exit statuses of eid, as documented in eid(1). `FailureReason` says which reason ends
/// with which.
public enum ExitStatus {
    /// The command did what it was asked.
    public static let success: Int32 = 0
    /// An unexpected internal failure.
    public static let internalError: Int32 = 1
    /// The card's state does not allow the operation: eID function deactivated, PUK inoperative.
    public static let cardState: Int32 = 2
    /// The PC/SC service (pcscd) is not running or not reachable.
    public static let serviceUnavailable: Int32 = 3
    /// The card or reader failed: card removed, communication error, unexpected answer.
    public static let cardError: Int32 = 4
    /// The workflow was cancelled: CANCEL command, end of input, or a wait that timed out.
    public static let cancelled: Int32 = 5
    /// The service was refused or refused the authentication: a TR-03124 check failed, the eID
    /// server sent what it must not, or ended with an error result.
    public static let refused: Int32 = 6
    /// The eID server or the service could not be reached, or TLS failed.
    public static let network: Int32 = 7
    /// Invalid arguments, or no terminal to ask for a secret on.
    public static let usage: Int32 = 64
    /// Interrupted by Ctrl-C (SIGINT) or SIGTERM.
    public static let interrupted: Int32 = 130
}
