import Workflows

/// A face that asks the person at it, as the terminal does with its prompts and a pinentry
/// program with its dialogs: the secret the last ENTER_* message requested, and whether to go
/// on with an authentication's request.
public protocol SecretAsker: AnyObject {
    /// What is said about each message, and which secret is pending.
    var requests: SecretRequests { get }
    /// The pending secret as its SET_* command; CANCEL when the person cancels.
    func nextCommand(timeout: Double) -> PeerInput
    /// ACCEPT or CANCEL for the request: `request` is what the console has shown (who asks,
    /// what for, which data); a face without a console of its own shows it with the question.
    func confirm(request: [String], timeout: Double) -> PeerInput
    /// Whether a stop signal arrived.
    var isInterrupted: Bool { get }
}
