import EAC
import SDK
import SmartCard

/// RUN_CHANGE_PIN: replace the transport PIN or change the PIN, asking for exactly what the
/// card needs, as AusweisApp's change PIN workflow does (CompositeStatePace, then
/// StateEnterNewPacePin and StateChangePin):
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

    private func runToOutcome() -> Outcome {
        let found: FoundCard
        switch waitForCard() {
        case .found(let card): found = card
        case .ended(let outcome): return outcome
        }
        // The PACE session must not outlive the workflow: reset the card at the end.
        defer { found.connection.disconnect(resetCard: true) }
        do {
            return try dialogue(with: found)
        } catch {
            return .cardError(CardError(error))
        }
    }

    // MARK: - Finding a card

    struct FoundCard {
        var reader: ReaderInfo
        var connection: CardConnection
        var paceInfo: PACEInfo
        var info: CardInfo
    }

    enum Search {
        case found(FoundCard)
        case ended(Outcome)
    }

    private func waitForCard() -> Search {
        let deadline = Deadline(secondsFromNow: timeouts.card)
        var announced = false
        // Cards already shown as unusable, by reader, until that reader's card changes.
        var refused: [String: UInt32] = [:]
        while true {
            if peer.isCancelled { return .ended(.cancelled) }
            let readers: [ReaderSnapshot]
            do {
                readers = try provider.readers().filter { readerName == nil || $0.name == readerName }
            } catch {
                return .ended(.cardError(CardError(error)))
            }
            var busy = false
            for r in readers where r.cardPresent && refused[r.name] != r.cardEvents {
                switch inspect(r) {
                case .usable(let card):
                    return .found(card)
                case .refused(let info):
                    refused[r.name] = r.cardEvents
                    peer.send(.reader(info))
                case .gone:
                    // Present but not to be opened now (another program uses it): look again.
                    busy = true
                }
            }
            if !announced && !busy {
                peer.send(.insertCard)
                announced = true
            }
            if deadline.hasPassed { return .ended(.timedOut) }
            do {
                try provider.waitForChange(timeout: min(0.5, max(0.05, deadline.remaining)))
            } catch {
                return .ended(.cardError(CardError(error)))
            }
        }
    }

    private enum Inspection {
        case usable(FoundCard)
        case refused(ReaderInfo)
        case gone
    }

    private func inspect(_ reader: ReaderSnapshot) -> Inspection {
        let connection: CardConnection
        do {
            connection = try provider.connect(reader: reader.name, exclusive: true)
        } catch {
            return .gone
        }
        do {
            guard let paceInfo = try EIDCardState.paceInfo(connection) else {
                connection.disconnect()
                return .refused(ReaderInfo(name: reader.name, keypad: false, card: .unknown))
            }
            let presence = EIDCardState.presence(for: try EIDCardState.pinOutcome(connection, paceInfo: paceInfo))
            let info = ReaderInfo(name: reader.name, keypad: false, card: presence)
            guard let card = presence.eIDCard, !card.deactivated else {
                connection.disconnect()
                return .refused(info)
            }
            return .usable(FoundCard(reader: info, connection: connection, paceInfo: paceInfo, info: card))
        } catch {
            connection.disconnect()
            return .gone
        }
    }

    // MARK: - The PIN dialogue

    /// Thrown inside the dialogue when the peer ends it.
    private struct Ended: Error {
        let outcome: Outcome
    }

    private func dialogue(with found: FoundCard) throws -> Outcome {
        var reader = found.reader
        peer.send(.reader(reader))
        let card = openSession(found.connection, found.paceInfo)
        var counter = found.info.retryCounter
        var canEstablished = false

        func show(_ retryCounter: Int, inoperative: Bool = false) {
            counter = retryCounter
            reader.card = .eID(CardInfo(inoperative: inoperative, retryCounter: retryCounter))
        }

        do {
            // Until PACE with the PIN (or transport PIN) is established.
            while true {
                if peer.isCancelled { return .cancelled }
                if counter == 0 {
                    let puk = try ask(.puk, reader: reader)
                    defer { puk.wipe() }
                    switch try card.establishPACE(.puk, secret: puk) {
                    case .wrongPassword(let sw) where sw == .authenticationMethodBlocked:
                        // The PUK has unblocked the PIN ten times: the card refuses it now.
                        show(0, inoperative: true)
                        peer.send(.enterPUK(reader: reader))
                        return .pukInoperative
                    case .wrongPassword:
                        continue
                    case .established:
                        switch ResetRetryCounterOutcome(unblockStatus: try card.unblockPIN()) {
                        case .done:
                            show(3)
                            continue
                        case .pukInoperative:
                            // A real card answers 6982 right after PACE with the PUK when the
                            // PUK is used up (AusweisApp2 reads it so); 6983/6984 other cards.
                            show(0, inoperative: true)
                            peer.send(.enterPUK(reader: reader))
                            return .pukInoperative
                        case .refused(let sw):
                            throw CardError.statusWord(sw)
                        }
                    }
                }
                if counter == 1 && !canEstablished {
                    let can = try ask(.can, reader: reader)
                    defer { can.wipe() }
                    switch try card.establishPACE(.can, secret: can) {
                    case .wrongPassword: continue
                    case .established: canEstablished = true
                    }
                    continue
                }
                let pin = try ask(.pin, reader: reader)
                defer { pin.wipe() }
                switch try card.establishPACE(.pin, secret: pin) {
                case .established:
                    show(3)
                case .wrongPassword(let sw):
                    // 63Cx says the attempts left; any other refusal: ask the card.
                    show(try Self.attemptsLeft(after: sw, askCard: card.pinRetryCounter))
                    canEstablished = false
                    continue
                }
                break
            }
            let newPIN = try ask(.newPIN, reader: reader)
            defer { newPIN.wipe() }
            if case .refused(let sw) = ResetRetryCounterOutcome(changeStatus: try card.changePIN(to: newPIN)) {
                throw CardError.statusWord(sw)
            }
            return .changed
        } catch let ended as Ended {
            return ended.outcome
        }
    }

    /// Sends the ENTER_* message for `kind` and returns the first valid answer. An invalid value
    /// gets the message again with `error` (the card is not touched); a command that answers
    /// something else gets BAD_STATE and is dropped.
    private func ask(_ kind: SecretKind, reader: ReaderInfo) throws -> Secret {
        peer.send(Self.request(kind, error: nil, reader: reader))
        while true {
            switch peer.nextCommand(timeout: timeouts.input) {
            case .endOfInput:
                throw Ended(outcome: .cancelled)
            case .timedOut:
                throw Ended(outcome: .timedOut)
            case .command(.cancel):
                throw Ended(outcome: .cancelled)
            case .command(.setSecret(let k, let value)) where k == kind:
                if let error = PasswordRules.check(value, as: kind) {
                    value?.wipe()
                    peer.send(Self.request(kind, error: error, reader: reader))
                    continue
                }
                return value!
            case .command(let other):
                if case .setSecret(_, let value) = other { value?.wipe() }
                peer.send(.badState(command: other.name))
            }
        }
    }

    /// The PIN attempts left after the card refused PACE with the PIN with `sw`: 63Cx says x;
    /// 6983 means blocked; 6982 or 6985 mean suspended (the CAN is needed first); for any other
    /// refusal (a plain 6300, say) the card is asked with MSE:Set AT, as AusweisApp does.
    static func attemptsLeft(after sw: StatusWord, askCard: () throws -> Int?) throws -> Int {
        if let n = PACEPasswordRefusal(statusWord: sw)?.pinRetryCounter { return n }
        guard let n = try askCard() else { throw CardError.statusWord(sw) }
        return n
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
