import EAC
import SDK
import SmartCard

/// RUN_CHANGE_PIN: replace the transport PIN or change the PIN, asking for exactly what the
/// card needs, as AusweisApp's change PIN workflow does (CompositeStatePace, then
/// StateEnterNewPacePin and StateChangePin). The states and their transitions are
/// `ChangePINState`; this class performs the effects:
///
/// - wait for an eID card (INSERT_CARD), read its PIN state, show it (READER);
/// - retry counter 3 or 2: ENTER_PIN (5 or 6 digits); 1: ENTER_CAN first, then ENTER_PIN in the
///   same card session; 0: ENTER_PUK, unblock, then ENTER_PIN;
/// - ENTER_NEW_PIN (6 digits), then RESET RETRY COUNTER with the new PIN inside PACE;
/// - a card whose eID function is deactivated is shown (READER, `deactivated: true`) and the
///   workflow waits for another card;
/// - a PUK that can no longer unblock the PIN is shown as the SDK describes it (ENTER_PUK with
///   `inoperative: true`), and the workflow ends: nothing more can be done with the card;
/// - CHANGE_PIN with `success` ends it.
///
/// Every secret is checked before it reaches the card and wiped as soon as it is used.
public final class ChangePINWorkflow {
    /// How the workflow ended.
    public enum Outcome: Equatable, Sendable {
        case changed
        case cancelled
        /// No card, or no answer from the peer, within the timeout.
        case timedOut
        /// The PUK has been used up: the PIN cannot be unblocked any more.
        case pukInoperative
        /// The card or reader failed (`FailureReason` names it for the faces).
        case cardError(CardError)
    }

    /// The timeouts of the workflow's waits, in seconds.
    public struct Timeouts: Sendable {
        public var card: Double
        public var input: Double
        public init(card: Double = 600, input: Double = 600) {
            self.card = card
            self.input = input
        }
    }

    let provider: CardReaderProvider
    let peer: SDKPeer
    let readerName: String?
    let timeouts: Timeouts
    let openSession: (CardConnection, PACEInfo) -> PINManagementCard

    /// - Parameters:
    ///   - readerName: use only this reader (nil: the first reader with an eID card).
    ///   - openSession: makes the card's PIN operations from a connection and the PACEInfo of
    ///     the card's EF.CardAccess.
    public init(
        provider: CardReaderProvider, peer: SDKPeer, readerName: String? = nil, timeouts: Timeouts = Timeouts(),
        openSession: @escaping (CardConnection, PACEInfo) -> PINManagementCard
    ) {
        self.provider = provider
        self.peer = peer
        self.readerName = readerName
        self.timeouts = timeouts
        self.openSession = openSession
    }

    /// Runs the workflow to its end; the last message sent is CHANGE_PIN with `success`.
    public func run() -> Outcome { runStarting {} }

    /// Like `run()`, calling `started` right after the CHANGE_PIN start message went out (the
    /// JSON face starts reading its input then, so that message is always the first line).
    public func runStarting(_ started: () -> Void) -> Outcome {
        peer.send(.changePIN(success: nil))
        started()
        let outcome = runToOutcome()
        peer.send(.changePIN(success: outcome == .changed))
        return outcome
    }

    /// Called with every state the workflow enters (STATUS will report them).
    public var onState: (ChangePINState) -> Void = { _ in }

    /// What the effects share while the workflow runs: the card held, the reader as the
    /// messages show it, the session's PIN operations, and the last answer (a secret, wiped as
    /// soon as it is used).
    private struct Run {
        var found: CardSearch.Found?
        var reader = ReaderInfo(name: "", card: .none)
        var card: PINManagementCard?
        var answer: Secret?
    }

    private func runToOutcome() -> Outcome {
        var run = Run()
        defer {
            run.answer?.wipe()
            // The PACE session must not outlive the workflow: reset the card at the end.
            run.found?.connection.disconnect(resetCard: true)
        }
        return ChangePINState.start.run(
            onState: onState, perform: { perform($0, &run) },
            finished: { state in
                if case .finished(let outcome) = state { return outcome }
                return nil
            },
            stalled: { state in .cardError(.transportFailed("the change PIN workflow stopped in \(state.name)")) },
            transition: ChangePINState.transition)
    }

    /// Performs one effect; the event it gives, if it gives one.
    private func perform(_ effect: ChangePINEffect, _ run: inout Run) -> ChangePINEvent? {
        do {
            switch effect {
            case .waitForCard:
                let search = CardSearch(provider: provider, peer: peer, readerName: readerName)
                switch search.waitForCard(timeout: timeouts.card) {
                case .found(let found):
                    run.found = found
                    run.reader = found.reader
                    run.card = openSession(found.connection, found.paceInfo)
                    return .cardFound(retryCounter: found.info.retryCounter)
                case .ended(let event): return event
                }
            case .sendReader:
                peer.send(.reader(run.reader))
                return nil
            case .noteCard(let info):
                run.reader.card = .eID(info)
                return nil
            case .sendEnterPUK:
                peer.send(.enterPUK(reader: run.reader))
                return nil
            case .checkCancelled:
                return peer.isCancelled ? .cancelled : .proceed
            case .ask(let kind):
                switch ask(kind, reader: run.reader) {
                case .answered(let secret):
                    run.answer?.wipe()
                    run.answer = secret
                    return .answered
                case .ended(let event):
                    return event
                }
            case .establishPace(let password):
                guard let card = run.card, let secret = run.answer else { return .failed(Self.noCard) }
                defer {
                    secret.wipe()
                    run.answer = nil
                }
                switch try card.establishPACE(password, secret: secret) {
                case .established: return .paceEstablished
                case .wrongPassword(let sw): return .paceRefused(sw)
                }
            case .readRetryCounter:
                guard let card = run.card else { return .failed(Self.noCard) }
                return .retryCounterRead(try card.pinRetryCounter())
            case .unblockPIN:
                guard let card = run.card else { return .failed(Self.noCard) }
                return .unblocked(ResetRetryCounterOutcome(unblockStatus: try card.unblockPIN()))
            case .changePIN:
                guard let card = run.card, let newPIN = run.answer else { return .failed(Self.noCard) }
                defer {
                    newPIN.wipe()
                    run.answer = nil
                }
                return .pinChanged(ResetRetryCounterOutcome(changeStatus: try card.changePIN(to: newPIN)))
            }
        } catch {
            return .failed(CardError(error))
        }
    }

    /// An effect on the card before a card was found: a bug in the transition function.
    private static let noCard = CardError.transportFailed("no card session")

    private enum Answer {
        case answered(Secret)
        case ended(ChangePINEvent)
    }

    /// Sends the ENTER_* message for `kind` and returns the first valid answer. An invalid value
    /// gets the message again with `error` (the card is not touched); a command that answers
    /// something else gets BAD_STATE and is dropped.
    private func ask(_ kind: SecretKind, reader: ReaderInfo) -> Answer {
        peer.send(Self.request(kind, error: nil, reader: reader))
        while true {
            switch peer.nextCommand(timeout: timeouts.input) {
            case .endOfInput:
                return .ended(.cancelled)
            case .timedOut:
                return .ended(.timedOut)
            case .command(.cancel):
                return .ended(.cancelled)
            case .command(.setSecret(let k, let value)) where k == kind:
                if let error = PasswordRules.check(value, as: kind) {
                    value?.wipe()
                    peer.send(Self.request(kind, error: error, reader: reader))
                    continue
                }
                return .answered(value!)
            case .command(let other):
                if case .setSecret(_, let value) = other { value?.wipe() }
                peer.send(.badState(command: other.name))
            }
        }
    }

    static func request(_ kind: SecretKind, error: String?, reader: ReaderInfo) -> SDKMessage {
        switch kind {
        case .pin: return .enterPIN(error: error, reader: reader)
        case .can: return .enterCAN(error: error, reader: reader)
        case .puk: return .enterPUK(error: error, reader: reader)
        case .newPIN: return .enterNewPIN(error: error, reader: reader)
        }
    }
}
