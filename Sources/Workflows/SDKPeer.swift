import SDK

/// The other end of a workflow: whoever reads its SDK messages and answers with SDK commands
/// (a terminal, a script on standard input/output, a test).
public protocol SDKPeer: AnyObject {
    /// Delivers one message.
    func send(_ message: SDKMessage)
    /// The next command for the workflow, waiting at most `timeout` seconds.
    func nextCommand(timeout: Double) -> PeerInput
    /// Whether CANCEL arrived; a workflow checks it between steps, so CANCEL acts at once.
    var isCancelled: Bool { get }
}

/// What a peer hands the workflow when it asks for input.
public enum PeerInput {
    case command(SDKCommand)
    /// The input ended (EOF): the workflow cancels.
    case endOfInput
    /// Nothing came within the timeout.
    case timedOut
}
