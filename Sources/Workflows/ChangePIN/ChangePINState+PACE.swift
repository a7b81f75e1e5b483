import EAC
import SDK
import SmartCard

/// The PACE group: which password, asking for it, PACE with it, and what the card's answer
/// means for the PIN state, until PACE with the PIN (or transport PIN) is established.
extension ChangePINState {
    /// StatePreparePace: 0 attempts left, the PUK; 1 and no CAN yet in this session, the CAN;
    /// else the PIN.
    static func preparePace(_ progress: PACEProgress, on event: ChangePINEvent) -> ChangePINStep? {
        guard event == .proceed else { return nil }
        let (password, secret): (PACEPasswordType, SecretKind)
        switch progress.retryCounter {
        case 0: (password, secret) = (.puk, .puk)
        case 1 where !progress.canEstablished: (password, secret) = (.can, .can)
        default: (password, secret) = (.pin, .pin)
        }
        return ChangePINStep(.enterPacePassword(password, progress), [.ask(secret)])
    }

    /// StateEnterPacePassword: the answer goes to PACE.
    static func enterPacePassword(
        _ password: PACEPasswordType, _ progress: PACEProgress, on event: ChangePINEvent
    ) -> ChangePINStep? {
        guard event == .answered else { return nil }
        return ChangePINStep(.establishPaceChannel(password, progress), [.establishPace(password)])
    }

    /// StateEstablishPaceChannel: what the card's answer to PACE means.
    static func establishPaceChannel(
        _ password: PACEPasswordType, _ progress: PACEProgress, on event: ChangePINEvent
    ) -> ChangePINStep? {
        switch (password, event) {
        case (.pin, .paceEstablished):
            return ChangePINStep(.enterNewPacePin, [.noteCard(CardInfo(retryCounter: 3)), .ask(.newPIN)])
        case (.pin, .paceRefused(let sw)):
            // 63Cx says the attempts left; any other refusal: ask the card.
            guard let left = PACEPasswordRefusal(statusWord: sw)?.pinRetryCounter else {
                return ChangePINStep(.updateRetryCounter(after: sw, progress), [.readRetryCounter])
            }
            return retryCounterKnown(left)
        case (.can, .paceEstablished):
            var next = progress
            next.canEstablished = true
            return ChangePINStep(.preparePace(next), [.checkCancelled])
        case (.can, .paceRefused):
            return ChangePINStep(.preparePace(progress), [.checkCancelled])
        case (.puk, .paceEstablished):
            return ChangePINStep(.resetRetryCounter(progress), [.unblockPIN])
        case (.puk, .paceRefused(let sw)) where sw == .authenticationMethodBlocked:
            // The PUK has unblocked the PIN ten times: the card refuses it now.
            return pukInoperative()
        case (.puk, .paceRefused):
            return ChangePINStep(.preparePace(progress), [.checkCancelled])
        default:
            return nil
        }
    }

    /// StateUpdateRetryCounter: MSE:Set AT tells the attempts left; if it does not either, the
    /// refusal stands as the card's error.
    static func updateRetryCounter(after sw: StatusWord, on event: ChangePINEvent) -> ChangePINStep? {
        guard case .retryCounterRead(let left) = event else { return nil }
        guard let left else { return ChangePINStep(.finished(.cardError(.statusWord(sw)))) }
        return retryCounterKnown(left)
    }

    /// StateResetRetryCounter: the PIN is unblocked (3 attempts), or the PUK is used up.
    static func resetRetryCounter(_ progress: PACEProgress, on event: ChangePINEvent) -> ChangePINStep? {
        guard case .unblocked(let outcome) = event else { return nil }
        switch outcome {
        case .done:
            var next = progress
            next.retryCounter = 3
            return ChangePINStep(.preparePace(next), [.noteCard(CardInfo(retryCounter: 3)), .checkCancelled])
        case .pukInoperative:
            // A real card answers 6982 right after PACE with the PUK when the PUK is used up
            // (AusweisApp2 reads it so); 6983/6984 other cards.
            return pukInoperative()
        case .refused(let sw):
            return ChangePINStep(.finished(.cardError(.statusWord(sw))))
        }
    }

    /// A wrong PIN: the attempts left are shown with the next request, and the CAN's session
    /// is over (a failed PACE ends the card's secure messaging).
    private static func retryCounterKnown(_ left: Int) -> ChangePINStep {
        ChangePINStep(
            .preparePace(PACEProgress(retryCounter: left, canEstablished: false)),
            [.noteCard(CardInfo(retryCounter: left)), .checkCancelled])
    }

    private static func pukInoperative() -> ChangePINStep {
        ChangePINStep(
            .finished(.pukInoperative), [.noteCard(CardInfo(inoperative: true, retryCounter: 0)), .sendEnterPUK])
    }
}
