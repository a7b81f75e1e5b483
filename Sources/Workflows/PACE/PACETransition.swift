import EAC
import SDK
import SmartCard

extension PACEState {
    /// The first step: waiting for a card.
    public static let start = PACEStep(.selectReader, [.waitForCard])

    /// The transition function of the PACE sub-machine: the state after `event` in `state`, and
    /// the effects to perform; nil when the state does not expect the event (the embedding
    /// workflow decides what that means). Every step that does not end the sub-machine ends with
    /// exactly one effect that gives the next event. A failed card, CANCEL and timeouts end it in
    /// any state.
    public static func transition(from state: PACEState, on event: PACEEvent) -> PACEStep? {
        switch state {
        case .established, .ended: return nil
        default: break
        }
        if let exit = event.exit { return PACEStep(.ended(exit)) }
        switch state {
        case .selectReader:
            guard case .cardFound(let counter) = event else { return nil }
            return PACEStep(.preparePace(PACEProgress(retryCounter: counter)), [.sendReader, .checkCancelled])
        case .preparePace(let progress):
            return preparePace(progress, on: event)
        case .enterPacePassword(let password, let progress):
            guard event == .answered else { return nil }
            return PACEStep(.establishPaceChannel(password, progress), [.establishPace(password)])
        case .establishPaceChannel(let password, let progress):
            return establishPaceChannel(password, progress, on: event)
        case .updateRetryCounter(let sw, _):
            // MSE:Set AT tells the attempts left; if it does not either, the refusal stands as
            // the card's error.
            guard case .retryCounterRead(let left) = event else { return nil }
            return left.map(retryCounterKnown) ?? PACEStep(.ended(.cardError(.statusWord(sw))))
        case .resetRetryCounter:
            return resetRetryCounter(on: event)
        case .established, .ended:
            return nil
        }
    }

    /// StatePreparePace: 0 attempts left, the PUK; 1 and no CAN yet in this session, the CAN;
    /// else the PIN.
    static func preparePace(_ progress: PACEProgress, on event: PACEEvent) -> PACEStep? {
        guard event == .proceed else { return nil }
        let (password, secret): (PACEPasswordType, SecretKind)
        switch progress.retryCounter {
        case 0: (password, secret) = (.puk, .puk)
        case 1 where !progress.canEstablished: (password, secret) = (.can, .can)
        default: (password, secret) = (.pin, .pin)
        }
        return PACEStep(.enterPacePassword(password, progress), [.ask(secret)])
    }

    /// StateEstablishPaceChannel: PACE with the PIN is the end; the CAN opens the last PIN
    /// attempt; the PUK unblocks.
    static func establishPaceChannel(_ password: PACEPasswordType, _ progress: PACEProgress, on event: PACEEvent)
        -> PACEStep?
    {
        switch (password, event) {
        case (.pin, .paceEstablished):
            return PACEStep(.established, [.noteCard(CardInfo(retryCounter: 3))])
        case (.pin, .paceRefused(let sw)):
            // 63Cx says the attempts left; any other refusal: ask the card.
            guard let left = PACEPasswordRefusal(statusWord: sw)?.pinRetryCounter else {
                return PACEStep(.updateRetryCounter(after: sw, progress), [.readRetryCounter])
            }
            return retryCounterKnown(left)
        case (.can, .paceEstablished):
            var next = progress
            next.canEstablished = true
            return PACEStep(.preparePace(next), [.checkCancelled])
        case (.puk, .paceEstablished):
            return PACEStep(.resetRetryCounter(progress), [.unblockPIN])
        case (.puk, .paceRefused(let sw)) where sw == .authenticationMethodBlocked:
            // The PUK has unblocked the PIN ten times: the card refuses it now.
            return pukInoperative()
        case (.can, .paceRefused), (.puk, .paceRefused):
            return PACEStep(.preparePace(progress), [.checkCancelled])
        default:
            return nil
        }
    }

    /// StateResetRetryCounter: the PIN is unblocked (3 attempts), or the PUK is used up. Any other
    /// answer: as AusweisApp does, the card connection is dropped and the card read again, and
    /// PACE goes on from the PIN state the card then shows. (vsmartcard's nPA emulator unblocks
    /// the PIN already at PACE with the PUK and answers RESET RETRY COUNTER with 6988, since it
    /// MACs a header-only command unlike AusweisApp and OpenSC: read again, the card has 3
    /// attempts, and ENTER_PIN follows.)
    static func resetRetryCounter(on event: PACEEvent) -> PACEStep? {
        guard case .unblocked(let outcome) = event else { return nil }
        switch outcome {
        case .done:
            return PACEStep(
                .preparePace(PACEProgress(retryCounter: 3)), [.noteCard(CardInfo(retryCounter: 3)), .checkCancelled])
        case .pukInoperative:
            // A real card answers 6982 right after PACE with the PUK when the PUK is used up
            // (AusweisApp2 reads it so); 6983/6984 other cards.
            return pukInoperative()
        case .refused:
            return PACEStep(.selectReader, [.dropCard, .waitForCard])
        }
    }

    /// A wrong PIN: the attempts left are shown with the next request, and the CAN's session
    /// is over (a failed PACE ends the card's secure messaging).
    static func retryCounterKnown(_ left: Int) -> PACEStep {
        PACEStep(
            .preparePace(PACEProgress(retryCounter: left)), [.noteCard(CardInfo(retryCounter: left)), .checkCancelled])
    }

    /// The card shown inoperative (READER with `inoperative`, as AusweisApp2 shows it), and the end.
    static func pukInoperative() -> PACEStep {
        PACEStep(.ended(.pukInoperative), [.noteCard(CardInfo(inoperative: true, retryCounter: 0)), .sendReader])
    }
}
