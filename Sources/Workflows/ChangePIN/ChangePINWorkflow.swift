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
/// - a PUK that can no longer unblock the PIN is shown as AusweisApp2 shows it (READER with
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

    let paceConfiguration: PACEConfiguration<PINManagementCard>
    var peer: SDKPeer { paceConfiguration.peer }

    /// - Parameter pace: the card side; its `openSession` makes the card's PIN operations.
    public init(pace: PACEConfiguration<PINManagementCard>) { self.paceConfiguration = pace }

    /// Runs the workflow to its end; the last message sent is CHANGE_PIN with `success`.
    public func run() -> Outcome { runStarting {} }

    /// Like `run()`, calling `started` right after the CHANGE_PIN start message went out (the
    /// JSON face starts reading its input then, so that message is always the first line).
    public func runStarting(_ started: () -> Void) -> Outcome {
        peer.send(.changePIN(success: nil))
        started()
        let outcome = runToOutcome()
        let reason = FailureReason(outcome, timeout: paceConfiguration.timeouts.input)
        peer.send(.changePIN(success: outcome == .changed, reason: reason?.name))
        return outcome
    }

    /// Called with every state the workflow enters (STATUS will report them).
    public var onState: (ChangePINState) -> Void = { _ in }

    private func runToOutcome() -> Outcome {
        let pace = PACEPerformer(paceConfiguration, transportPINAllowed: true)
        // The PACE session must not outlive the workflow: reset the card at the end.
        defer { pace.end() }
        return ChangePINState.start.run(
            onState: onState, perform: { perform($0, pace) },
            finished: { state in
                if case .finished(let outcome) = state { return outcome }
                return nil
            },
            stalled: { state in .cardError(.transportFailed("the change PIN workflow stopped in \(state.name)")) },
            transition: ChangePINState.transition)
    }

    /// Performs one effect; the event it gives, if it gives one.
    private func perform(_ effect: ChangePINEffect, _ pace: PACEPerformer) -> ChangePINEvent? {
        switch effect {
        case .pace(let effect):
            return pace.perform(effect).map(ChangePINEvent.pace)
        case .changePIN:
            do {
                return .pinChanged(ResetRetryCounterOutcome(changeStatus: try changePIN(pace)))
            } catch let entry as PINPadEntryError {
                return .pace(entry.event)
            } catch {
                return .failed(CardError(error))
            }
        }
    }

    /// RESET RETRY COUNTER with the answer (wiped then), or ModifyPIN on the reader's PIN pad.
    private func changePIN(_ pace: PACEPerformer) throws -> StatusWord {
        if pace.reader.keypad {
            guard let pad = pace.card as? PINPadCard else { throw PACEPerformer.noCard }
            return try pad.changePINOnPINPad(timeout: paceConfiguration.timeouts.input)
        }
        guard let card = pace.card, let newPIN = pace.takeAnswer() else { throw PACEPerformer.noCard }
        defer { newPIN.wipe() }
        return try card.changePIN(to: newPIN)
    }
}
