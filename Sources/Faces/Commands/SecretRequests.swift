import SDK
import Workflows

/// What a face that asks a person says about the workflow's messages, and which secret it asks
/// for next: the sentence for a message ("Wrong PIN. 2 attempts left.", "The PIN is suspended …")
/// and the secret the last ENTER_* message requested. The terminal face and the pinentry face
/// share it, so both say the same.
public final class SecretRequests {
    /// The secret the last ENTER_* message asked for.
    public private(set) var pending: SecretKind?
    /// The sentence said with the last ENTER_* message (why it asks again), if any.
    public private(set) var reason: String?
    /// Whether the pending secret is typed on the reader's keypad (a PIN-pad reader, a phone in
    /// PIN-pad mode): the face then asks nothing and answers SET_* without a value.
    public private(set) var onKeypad = false
    private var lastCounter: Int?
    private var asked: Set<SecretKind> = []
    /// Whether the PIN prompt offers the 5-digit transport PIN (change PIN; never in an authentication).
    public let transportPIN: Bool

    public init(transportPIN: Bool = true) {
        self.transportPIN = transportPIN
    }

    /// The sentence for a message, or nil when the message needs none. It reads what is known
    /// from earlier messages and changes nothing: `note` learns from the message.
    public func render(_ message: SDKMessage) -> String? {
        switch message {
        case .changePIN(nil, _):
            return "Change the PIN of your ID card (Ctrl-C cancels)."
        case .changePIN(true?, _):
            return "Done: the PIN has been changed."
        case .changePIN(false?, _):
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
            guard reader.keypad else { return sentence(kind, reader) }
            let keypad = "Enter the \(Self.name(kind)) on the keypad of \(reader.name)."
            return [sentence(kind, reader), keypad].compactMap { $0 }.joined(separator: " ")
        default:
            return nil
        }
    }

    /// What an ENTER_* message for `kind` says beyond the prompt (why it asks), or nil.
    private func sentence(_ kind: SecretKind, _ reader: ReaderInfo) -> String? {
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
    }

    static func name(_ kind: SecretKind) -> String {
        switch kind {
        case .pin: return "PIN"
        case .can: return "CAN"
        case .puk: return "PUK"
        case .newPIN: return "new PIN (twice)"
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
            reason = render(message)
            pending = kind
            onKeypad = reader.keypad
            asked.insert(kind)
            if error != nil { return }
            lastCounter = reader.card.eIDCard?.retryCounter
            // A PUK that can no longer unblock the PIN: nothing to ask.
            if kind == .puk && reader.card.eIDCard?.inoperative == true { pending = nil }
        default:
            break
        }
    }

    static let sixDigitPINPrompt = "PIN (6 digits): "

    /// The prompt for the pending kind of secret.
    func prompt(_ kind: SecretKind) -> String {
        switch kind {
        case .pin: return transportPIN ? "PIN (6 digits, or 5 for the transport PIN): " : Self.sixDigitPINPrompt
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
