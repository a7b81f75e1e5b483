import SDK
import SmartCard
import Workflows

/// The face that asks through a pinentry program when there is no terminal (`eid serve` with a
/// browser activation and no SDK client): the same questions as the terminal face, each in a
/// dialog of its own. Whether to proceed is a CONFIRM whose description is what the terminal
/// shows (service, purpose, rights); the PIN, CAN and PUK are GETPIN, with the reason ("Wrong
/// PIN. 2 attempts left.") in the description. The typed secret goes from the program's D line
/// straight into a `Secret`. Cancel in the dialog is CANCEL; a program that fails ends the input.
public final class PinentryFace: SecretAsker, @unchecked Sendable {
    // Unchecked: `current` and `interrupted` are guarded by `lock`; the rest is used by the
    // workflow's thread.
    public let requests: SecretRequests
    private let program: PinentryProgram
    private let console: Console
    private let title: String
    private let lock = Lock()
    private var current: PinentryConnection?
    private var interrupted = false

    /// `title`: the dialog's title (what is being done).
    public init(program: PinentryProgram, console: Console, title: String, transportPIN: Bool = true) {
        self.program = program
        self.console = console
        self.title = title
        self.requests = SecretRequests(transportPIN: transportPIN)
    }

    public var isInterrupted: Bool { lock.withLock { interrupted } }

    /// From the signal thread: the dialog under way ends, and the workflow is cancelled.
    public func interrupt() {
        let connection = lock.withLock {
            interrupted = true
            return current
        }
        connection?.interrupt()
    }

    public func nextCommand(timeout: Double) -> PeerInput {
        guard let kind = requests.pending else { return .timedOut }
        // Typed on the reader's keypad: the sentence said so; the answer carries no value.
        if requests.onKeypad { return .command(.setSecret(kind, value: nil)) }
        let prompt = requests.prompt(kind)
        let description = [requests.reason, Self.request(kind, prompt: prompt)].compactMap { $0 }
        return dialog(timeout: timeout) { client throws(PinentryError) in
            try client.set("SETDESC", description.joined(separator: "\n"))
            try client.set("SETPROMPT", Self.label(kind))
            if kind == .newPIN {
                try client.set("SETREPEAT", "Repeat:")
                try client.set("SETREPEATERROR", "The two entries differ. Try again.")
            }
            switch try client.getPIN(timeout: timeout) {
            case .answered(let secret): return .command(.setSecret(kind, value: secret))
            case .cancelled: return .command(.cancel)
            case .timedOut: return .timedOut
            }
        }
    }

    public func confirm(request: [String], timeout: Double) -> PeerInput {
        dialog(timeout: timeout) { client throws(PinentryError) in
            try client.set("SETDESC", (request + ["", "Proceed?"]).joined(separator: "\n"))
            try client.set("SETOK", "Proceed")
            switch try client.confirm(timeout: timeout) {
            case .answered: return .command(.accept)
            case .cancelled: return .command(.cancel)
            case .timedOut: return .timedOut
            }
        }
    }

    /// One dialog: start the program, title and buttons, `body`, BYE. A failure is said on the
    /// console and ends the input (the workflow cancels); an interrupt cancels.
    private func dialog(timeout: Double, _ body: (PinentryClient) throws(PinentryError) -> PeerInput) -> PeerInput {
        if isInterrupted { return .command(.cancel) }
        do {
            let client = try PinentryClient(program)
            lock.withLock { current = client.connection }
            defer {
                lock.withLock { current = nil }
                client.end()
            }
            if isInterrupted { return .command(.cancel) }
            try client.set("SETTITLE", title)
            try client.set("SETCANCEL", "Cancel")
            return try body(client)
        } catch .interrupted {
            return .command(.cancel)
        } catch {
            console.err("eid: \(error)")
            return .endOfInput
        }
    }

    /// The description's question for a secret: the terminal's prompt without its colon.
    static func request(_ kind: SecretKind, prompt: String) -> String {
        let words = prompt.hasSuffix(": ") ? String(prompt.dropLast(2)) : prompt
        return "Enter your \(words)."
    }

    /// The short label beside the entry field.
    static func label(_ kind: SecretKind) -> String {
        switch kind {
        case .pin: return "PIN:"
        case .can: return "CAN:"
        case .puk: return "PUK:"
        case .newPIN: return "New PIN:"
        }
    }
}
