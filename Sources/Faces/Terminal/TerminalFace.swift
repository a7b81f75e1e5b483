import SDK
import SmartCard
import Workflows

/// The interactive face: SDK messages become plain sentences, ENTER_* messages become prompts
/// on the terminal with echo off, and the typed answer becomes the SET_* command.
public final class TerminalFace {
    private let terminal: TerminalInput
    /// The secret the last ENTER_* message asked for.
    private(set) var pending: SecretKind?
    private var lastCounter: Int?
    private var asked: Set<SecretKind> = []
    /// Whether the PIN prompt offers the 5-digit transport PIN (change PIN; never in an authentication).
    private let transportPIN: Bool

    public init(terminal: TerminalInput, transportPIN: Bool = true) {
        self.terminal = terminal
        self.transportPIN = transportPIN
    }

    /// The sentence for a message, or nil when the message needs none. It reads what the face
    /// knows from earlier messages and changes nothing: `note` learns from the message.
    public func render(_ message: SDKMessage) -> String? {
        switch message {
        case .changePIN(nil):
            return "Change the PIN of your ID card (Ctrl-C cancels)."
        case .changePIN(true?):
            return "Done: the PIN has been changed."
        case .changePIN(false?):
            return nil
        case .insertCard:
            return "Place your ID card on the card reader."
        case .reader(let r):
            switch r.card {
            case .unknown:
                return "The card in \(r.name) is not an eID card. Insert another card or press Ctrl-C."
            case .eID(let info) where info.deactivated:
                return "The eID function of this card is switched off; only the citizen office can switch it on. "
                    + "Insert another card or press Ctrl-C."
            case .eID(let info) where info.inoperative:
                return Self.pukUsedUp
            case .eID:
                return "\(r.name): \(CardText.sentence(for: r.card))"
            case .none:
                return nil
            }
        case .enterPIN(let error, let reader), .enterCAN(let error, let reader), .enterPUK(let error, let reader),
            .enterNewPIN(let error, let reader):
            let kind = message.secretKind!
            if let error { return "Not accepted: \(error)." }
            let counter = reader.card.eIDCard?.retryCounter
            switch kind {
            case .pin:
                if let c = counter, let before = lastCounter, c < before {
                    return "Wrong PIN. \(c) attempt\(c == 1 ? "" : "s") left."
                }
                if asked.contains(.puk) && !asked.contains(.pin) { return "The PIN is unblocked. Now enter your PIN." }
                return nil
            case .can:
                if asked.contains(.can) { return "Wrong CAN. Try again." }
                return "The PIN is suspended after two wrong attempts. Enter the CAN to unlock the last attempt."
            case .puk:
                if reader.card.eIDCard?.inoperative == true { return Self.pukUsedUp }
                if asked.contains(.puk) { return "Wrong PUK. Try again." }
                return "The PIN is blocked after three wrong attempts. Enter the PUK to unblock it."
            case .newPIN:
                return asked.contains(.newPIN) ? nil : "Choose your new 6-digit PIN."
            }
        default:
            return nil
        }
    }

    static let pukUsedUp =
        "The PUK of this card has been used ten times and can no longer unblock the PIN. "
        + "Ask the citizen office for a new PIN letter."

    /// Learns from a message that went out: which secret to ask for next (ENTER_*), what has
    /// been asked before, and the retry counter last shown. Called after `render`.
    public func note(_ message: SDKMessage) {
        switch message {
        case .reader(let r):
            if case .eID(let info) = r.card, !info.deactivated, !info.inoperative { lastCounter = info.retryCounter }
        case .enterPIN(let error, let reader), .enterCAN(let error, let reader), .enterPUK(let error, let reader),
            .enterNewPIN(let error, let reader):
            let kind = message.secretKind!
            pending = kind
            asked.insert(kind)
            if error != nil { return }
            lastCounter = reader.card.eIDCard?.retryCounter
            // A PUK that can no longer unblock the PIN: nothing to ask.
            if kind == .puk && reader.card.eIDCard?.inoperative == true { pending = nil }
        default:
            break
        }
    }

    /// Asks for the secret the last ENTER_* message requested.
    public func nextCommand(timeout: Double) -> PeerInput {
        guard let kind = pending else { return .timedOut }
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
            let prompt = kind == .pin && !transportPIN ? Self.sixDigitPINPrompt : Self.prompt(kind)
            switch ask(prompt, timeout: timeout) {
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

    static let sixDigitPINPrompt = "PIN (6 digits): "

    static func prompt(_ kind: SecretKind) -> String {
        switch kind {
        case .pin: return "PIN (6 digits, or 5 for the transport PIN): "
        case .can: return "CAN (6 digits, printed on the front of the card): "
        case .puk: return "PUK (10 digits, from the PIN letter): "
        case .newPIN: return "New PIN: "
        }
    }
}

extension SDKMessage {
    /// The secret an ENTER_* message asks for.
    var secretKind: SecretKind? {
        switch self {
        case .enterPIN: return .pin
        case .enterCAN: return .can
        case .enterPUK: return .puk
        case .enterNewPIN: return .newPIN
        default: return nil
        }
    }
}
