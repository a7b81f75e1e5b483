import SDK
import SmartCard
import Workflows

/// The interactive face: SDK messages become plain sentences, ENTER_* messages become prompts
/// on the terminal with echo off, and the typed answer becomes the SET_* command.
public final class TerminalFace: SecretAsker {
    private let terminal: TerminalInput
    /// What is said about each message, and which secret is pending.
    public let requests: SecretRequests

    public init(terminal: TerminalInput, transportPIN: Bool = true) {
        self.terminal = terminal
        self.requests = SecretRequests(transportPIN: transportPIN)
    }

    /// The sentence for a message (`SecretRequests.render`).
    public func render(_ message: SDKMessage) -> String? { requests.render(message) }

    /// Learns from a message that went out (`SecretRequests.note`).
    public func note(_ message: SDKMessage) { requests.note(message) }

    /// "Proceed? [y/N]" on the terminal; the request itself is already on the console.
    public func confirm(request: [String], timeout: Double) -> PeerInput {
        switch terminal.readSecret(prompt: "Proceed? [y/N] ", timeout: timeout, echo: true) {
        case .secret(let answer):
            defer { answer.wipe() }
            let text = answer.withBytes { String(decoding: $0, as: UTF8.self) }.lowercased()
            return text == "y" || text == "yes" ? .command(.accept) : .command(.cancel)
        case .endOfInput, .tooLong: return .command(.cancel)
        case .timedOut: return .timedOut
        case .interrupted: return .command(.cancel)
        }
    }

    /// Asks for the secret the last ENTER_* message requested.
    public func nextCommand(timeout: Double) -> PeerInput {
        guard let kind = requests.pending else { return .timedOut }
        // Typed on the reader's keypad: the sentence said so; the answer carries no value.
        if requests.onKeypad { return .command(.setSecret(kind, value: nil)) }
        switch kind {
        case .newPIN:
            while true {
                let first: Secret
                switch ask("New PIN: ", timeout: timeout) {
                case .secret(let s): first = s
                case .ended(let input): return input
                }
                // A new PIN that is not 6 digits is refused by the workflow; no need to repeat it.
                guard PasswordRules.check(first, as: .newPIN) == nil else {
                    return .command(.setSecret(.newPIN, value: first))
                }
                switch ask("Repeat new PIN: ", timeout: timeout) {
                case .secret(let second):
                    defer { second.wipe() }
                    if first.matches(second) { return .command(.setSecret(.newPIN, value: first)) }
                    first.wipe()
                    terminal.write("The two entries differ. Try again.\n")
                case .ended(let input):
                    first.wipe()
                    return input
                }
            }
        default:
            switch ask(requests.prompt(kind), timeout: timeout) {
            case .secret(let s): return .command(.setSecret(kind, value: s))
            case .ended(let input): return input
            }
        }
    }

    private enum Typed {
        case secret(Secret)
        case ended(PeerInput)
    }

    /// One answer at a prompt: a line that is too long is refused and asked again (nothing
    /// reaches the workflow); an interrupt cancels the workflow, which wipes its secrets and
    /// resets the card.
    private func ask(_ prompt: String, timeout: Double) -> Typed {
        while true {
            switch terminal.readSecret(prompt: prompt, timeout: timeout) {
            case .secret(let s): return .secret(s)
            case .endOfInput: return .ended(.endOfInput)
            case .timedOut: return .ended(.timedOut)
            case .interrupted: return .ended(.command(.cancel))
            case .tooLong:
                terminal.write("Too long: at most \(TerminalInput.maximumLength) characters. Try again.\n")
            }
        }
    }

    /// Whether a stop signal (Ctrl-C, SIGTERM, SIGQUIT, SIGHUP) arrived.
    public var isInterrupted: Bool { terminal.isInterrupted }
}
