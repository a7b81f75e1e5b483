import ArgumentParser

/// The exit statuses of eid, as documented in eid(1).
enum ExitStatus {
    /// The command did what it was asked.
    static let success: Int32 = 0
    /// An unexpected internal failure.
    static let internalError: Int32 = 1
    /// The card's state does not allow the operation: eID function deactivated, PUK inoperative.
    static let cardState: Int32 = 2
    /// The PC/SC service (pcscd) is not running or not reachable.
    static let serviceUnavailable: Int32 = 3
    /// The card or reader failed: card removed, communication error, unexpected answer.
    static let cardError: Int32 = 4
    /// The workflow was cancelled: CANCEL command, end of input, or a wait that timed out.
    static let cancelled: Int32 = 5
    /// Interrupted by Ctrl-C (SIGINT) or SIGTERM.
    static let interrupted: Int32 = 130

    static func exit(_ code: Int32) -> ExitCode { ExitCode(code) }
}
