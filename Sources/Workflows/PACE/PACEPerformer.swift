import EAC
import SDK
import SmartCard

/// Performs the PACE sub-machine's effects for a workflow: the card search, the READER and
/// ENTER_* messages, PACE, the retry counter and RESET RETRY COUNTER (unblock) on the card
/// session its configuration's `openSession` makes. It holds the card and the last answer (a
/// secret, wiped as soon as it is used) until `end()`, which wipes it and resets the card.
final class PACEPerformer {
    let configuration: PACEConfiguration<PINManagementCard>
    /// Whether ENTER_PIN takes the 5-digit transport PIN (change PIN: yes; authentication: no).
    let transportPINAllowed: Bool
    /// The CHAT PACE asks for (the authentication's effective CHAT; nil in change PIN).
    var chat: CHAT?
    /// The certificate description a PIN-pad reader shows (the authentication's; nil in change PIN).
    var certificateDescription: [UInt8]?
    /// Answers a command that comes while a secret is asked for, and says whether it did (the
    /// authentication answers GET_CERTIFICATE); any other gets BAD_STATE.
    var answersMeanwhile: (SDKCommand) -> Bool = { _ in false }

    /// The card held, the reader as the messages show it, the card session.
    private(set) var found: CardSearch.Found?
    private(set) var reader = ReaderInfo(name: "", card: .none)
    private(set) var card: PINManagementCard?
    private var answer: Secret?

    init(_ configuration: PACEConfiguration<PINManagementCard>, transportPINAllowed: Bool) {
        self.configuration = configuration
        self.transportPINAllowed = transportPINAllowed
    }

    private var peer: SDKPeer { configuration.peer }

    /// Wipes the last answer and resets the card: the PACE session must not outlive the workflow
    /// (on a PIN-pad reader the reader's PACE channel is destroyed first, as AusweisApp does).
    func end() {
        answer?.wipe()
        answer = nil
        if reader.keypad, let pad = found?.connection as? PINPadConnection { try? pad.destroyPACEChannel() }
        found?.connection.disconnect(resetCard: true)
    }

    /// The last answer, which the caller now holds and wipes.
    func takeAnswer() -> Secret? {
        defer { answer = nil }
        return answer
    }

    /// Performs one effect; the event it gives, if it gives one.
    func perform(_ effect: PACEEffect) -> PACEEvent? {
        do {
            switch effect {
            case .waitForCard:
                let search = CardSearch(
                    provider: configuration.provider, peer: peer, readerName: configuration.readerName)
                switch search.waitForCard(timeout: configuration.timeouts.card) {
                case .found(let found):
                    self.found = found
                    reader = found.reader
                    if found.reader.keypad, let pad = found.connection as? PINPadConnection,
                        let open = configuration.openPINPadSession
                    {
                        card = open(pad, found.paceInfo)
                    } else {
                        reader.keypad = false
                        card = configuration.openSession(found.connection, found.paceInfo)
                    }
                    return .cardFound(retryCounter: found.info.retryCounter)
                case .cancelled: return .cancelled
                case .timedOut: return .timedOut
                case .failed(let error): return .failed(error)
                }
            case .sendReader:
                peer.send(.reader(reader))
                return nil
            case .noteCard(let info):
                reader.card = .eID(info)
                return nil
            case .checkCancelled:
                return peer.isCancelled ? .cancelled : .proceed
            case .ask(let kind):
                return ask(kind)
            case .establishPace(let password):
                switch try establishPACE(password) {
                case .established: return .paceEstablished
                case .wrongPassword(let sw): return .paceRefused(sw)
                }
            case .readRetryCounter:
                guard let card else { return .failed(Self.noCard) }
                return .retryCounterRead(try card.pinRetryCounter())
            case .unblockPIN:
                guard let card else { return .failed(Self.noCard) }
                do {
                    return .unblocked(ResetRetryCounterOutcome(unblockStatus: try card.unblockPIN()))
                } catch CardError.statusWord(let sw) {
                    // Answered without secure messaging (the card dropped the channel): still its answer.
                    return .unblocked(ResetRetryCounterOutcome(unblockStatus: sw))
                }
            case .dropCard:
                found?.connection.disconnect(resetCard: true)
                found = nil
                card = nil
                return nil
            }
        } catch let entry as PINPadEntryError {
            return entry.event
        } catch {
            return .failed(CardError(error))
        }
    }

    /// PACE with the answer (wiped then), or on the reader's PIN pad.
    private func establishPACE(_ password: PACEPasswordType) throws -> PACEOutcome {
        if reader.keypad {
            guard let pad = card as? PINPadCard else { throw Self.noCard }
            return try pad.establishPACEOnPINPad(
                password, chat: chat, certificateDescription: certificateDescription,
                timeout: configuration.timeouts.input)
        }
        guard let card, let secret = takeAnswer() else { throw Self.noCard }
        defer { secret.wipe() }
        return try card.establishPACE(password, secret: secret, chat: chat)
    }

    /// An effect on the card before a card was found: a bug in the transition function.
    static var noCard: CardError { .transportFailed("no card session") }

    /// Sends the ENTER_* message for `kind` and takes the first valid answer. An invalid value
    /// gets the message again with `error` (the card is not touched); on a reader with a PIN pad
    /// the answer has no value (the user types it there), and one with a value is invalid. A command that answers
    /// something else gets BAD_STATE and is dropped, unless `answersMeanwhile` answers it.
    private func ask(_ kind: SecretKind) -> PACEEvent {
        peer.send(.request(kind, error: nil, reader: reader))
        while true {
            switch peer.nextCommand(timeout: configuration.timeouts.input) {
            case .endOfInput, .command(.cancel):
                return .cancelled
            case .timedOut:
                return .timedOut
            case .command(.setSecret(let k, let value)) where k == kind && reader.keypad:
                // The secret is typed on the reader: SET_* comes without a value (AusweisApp's words).
                guard let value else { return .answered }
                value.wipe()
                peer.send(.request(kind, error: "Value cannot be defined", reader: reader))
            case .command(.setSecret(let k, let value)) where k == kind:
                if let error = PasswordRules.check(value, as: kind, transportPINAllowed: transportPINAllowed) {
                    value?.wipe()
                    peer.send(.request(kind, error: error, reader: reader))
                    continue
                }
                guard let value else { continue }
                answer?.wipe()
                answer = value
                return .answered
            case .command(let other):
                if answersMeanwhile(other) { continue }
                if case .setSecret(_, let value) = other { value?.wipe() }
                peer.send(.badState(command: other.name))
            }
        }
    }
}
