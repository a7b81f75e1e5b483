import Dispatch
import EAC
import Faces
import Foundation
import SDK
import SmartCard
import Testing

@testable import Workflows

@Suite struct ChangePINWorkflowTests {
    func run(
        _ lines: [String], counter: Int = 3, card: FakePINCard = FakePINCard(), mse: StatusWord? = nil,
        timeout: Double = 30, channel given: FakeCardChannel? = nil
    ) -> (ChangePINWorkflow.Outcome, ScriptedPeer, FakePINCard) {
        card.counter = counter
        let channel = given ?? FakeCardChannel(mseStatus: mse ?? (counter == 3 ? .success : .retriesLeft(counter)))
        let peer = ScriptedPeer(lines)
        let workflow = ChangePINWorkflow(
            pace: PACEConfiguration(
                provider: OneReaderProvider(channel), peer: peer, timeouts: .init(card: timeout, input: timeout),
                openSession: { _, _ in card }))
        return (workflow.run(), peer, card)
    }

    static let pin = #"{"cmd":"SET_PIN","value":"123456"}"#
    static let newPIN = #"{"cmd":"SET_NEW_PIN","value":"654321"}"#

    @Test func happyPath() {
        let channel = FakeCardChannel(mseStatus: .success)
        let (outcome, peer, card) = run([Self.pin, Self.newPIN], channel: channel)
        #expect(channel.resets == 1, "the card is reset at the end: no PACE state outlives the workflow")
        #expect(outcome == .changed)
        #expect(peer.names == ["CHANGE_PIN", "READER", "ENTER_PIN", "ENTER_NEW_PIN", "CHANGE_PIN"])
        #expect(peer.messages.last == .changePIN(success: true))
        #expect(card.changedTo == "654321")
    }

    @Test func transportPINHasFiveDigits() {
        let card = FakePINCard()
        card.pin = "12345"
        let (outcome, _, _) = run([#"{"cmd":"SET_PIN","value":"12345"}"#, Self.newPIN], card: card)
        #expect(outcome == .changed)
        #expect(card.pin == "654321")
    }

    @Test func oneWrongPINThenRight() {
        let (outcome, peer, _) = run([#"{"cmd":"SET_PIN","value":"111111"}"#, Self.pin, Self.newPIN])
        #expect(outcome == .changed)
        let enters = peer.messages.filter { $0.name == "ENTER_PIN" }
        #expect(enters.count == 2)
        if case .enterPIN(nil, let reader) = enters[1] {
            #expect(reader.card.eIDCard?.retryCounter == 2)
        } else {
            Issue.record("second ENTER_PIN has an error or is missing")
        }
    }

    @Test func twoWrongPINsThenCANThenPIN() {
        let (outcome, peer, card) = run([
            #"{"cmd":"SET_PIN","value":"111111"}"#, #"{"cmd":"SET_PIN","value":"222222"}"#,
            #"{"cmd":"SET_CAN","value":"000000"}"#, #"{"cmd":"SET_CAN","value":"500540"}"#, Self.pin, Self.newPIN,
        ])
        #expect(outcome == .changed)
        #expect(
            peer.names == [
                "CHANGE_PIN", "READER", "ENTER_PIN", "ENTER_PIN", "ENTER_CAN", "ENTER_CAN", "ENTER_PIN",
                "ENTER_NEW_PIN",
                "CHANGE_PIN",
            ])
        #expect(card.operations == ["PACE pin", "PACE pin", "PACE can", "PACE can", "PACE pin", "change"])
    }

    @Test func suspendedCardAsksForTheCANFirst() {
        let (_, peer, _) = run([], counter: 1)
        #expect(peer.names.dropFirst(2).first == "ENTER_CAN")
    }

    @Test func blockedCardAsksForThePUKThenThePIN() {
        let (outcome, peer, card) = run(
            [#"{"cmd":"SET_PUK","value":"9876543210"}"#, Self.pin, Self.newPIN], counter: 0)
        #expect(outcome == .changed)
        #expect(peer.names == ["CHANGE_PIN", "READER", "ENTER_PUK", "ENTER_PIN", "ENTER_NEW_PIN", "CHANGE_PIN"])
        #expect(card.operations == ["PACE puk", "unblock", "PACE pin", "change"])
    }

    @Test func threeWrongPINsLeadToThePUK() {
        let wrong = #"{"cmd":"SET_PIN","value":"999999"}"#
        let (outcome, peer, _) = run([
            wrong, wrong, #"{"cmd":"SET_CAN","value":"500540"}"#, wrong, #"{"cmd":"SET_PUK","value":"9876543210"}"#,
            Self.pin, Self.newPIN,
        ])
        #expect(outcome == .changed)
        #expect(
            peer.names.filter { $0.hasPrefix("ENTER_") } == [
                "ENTER_PIN", "ENTER_PIN", "ENTER_CAN", "ENTER_PIN", "ENTER_PUK", "ENTER_PIN", "ENTER_NEW_PIN",
            ])
    }

    /// vsmartcard's nPA emulator unblocks the PIN already at PACE with the PUK and answers the
    /// unblock 6988 without secure messaging: the card is read again (READER, 3 attempts) and
    /// ENTER_PIN follows, as AusweisApp2's StateResetRetryCounter goes on.
    @Test func anUnblockAnswered6988ReadsTheCardAgain() {
        final class EmulatedNPACard: FakePINCard {
            let channel: FakeCardChannel
            init(channel: FakeCardChannel) { self.channel = channel }
            override func establishPACE(_ password: PACEPasswordType, secret: Secret, chat: CHAT?) throws
                -> PACEOutcome
            {
                let outcome = try super.establishPACE(password, secret: secret, chat: chat)
                if password == .puk, outcome == .established {
                    counter = 3
                    channel.mseStatus = .success
                }
                return outcome
            }
            override func unblockPIN() throws -> StatusWord {
                operations.append("unblock")
                throw CardError.statusWord(.smDataObjectsIncorrect)
            }
        }
        let channel = FakeCardChannel(mseStatus: .retriesLeft(0))
        let card = EmulatedNPACard(channel: channel)
        let (outcome, peer, _) = run(
            [#"{"cmd":"SET_PUK","value":"9876543210"}"#, Self.pin, Self.newPIN], counter: 0, card: card,
            channel: channel)
        #expect(outcome == .changed)
        #expect(
            peer.names == ["CHANGE_PIN", "READER", "ENTER_PUK", "READER", "ENTER_PIN", "ENTER_NEW_PIN", "CHANGE_PIN"])
        let pin = peer.messages.first { $0.name == "ENTER_PIN" }
        if case .enterPIN(nil, let reader)? = pin {
            #expect(reader.card.eIDCard?.retryCounter == 3)
        } else {
            Issue.record("no ENTER_PIN")
        }
        #expect(card.operations == ["PACE puk", "unblock", "PACE pin", "change"])
        #expect(channel.resets == 2, "reset when the connection was dropped, and at the end")
    }

    @Test(arguments: [0x6982, 0x6983, 0x6984] as [UInt16])
    func inoperativePUKEndsTheWorkflow(unblockStatus: UInt16) {
        let card = FakePINCard()
        card.pukUses = 0
        card.inoperativePUKStatus = StatusWord(rawValue: unblockStatus)
        let (outcome, peer, _) = run([#"{"cmd":"SET_PUK","value":"9876543210"}"#], counter: 0, card: card)
        #expect(outcome == .pukInoperative)
        let shown = peer.messages.compactMap { m -> ReaderInfo? in
            if case .reader(let r) = m { return r } else { return nil }
        }
        #expect(shown.last?.card.eIDCard?.inoperative == true, "READER with inoperative true, as AusweisApp2 shows it")
        #expect(peer.names.filter { $0 == "ENTER_PUK" }.count == 1, "asked once")
        #expect(peer.messages.last == .changePIN(success: false, reason: "Establish_Pace_Channel_Puk_Inoperative"))
        #expect(card.operations == ["PACE puk", "unblock"])
    }

    @Test func pukRefusedAtPACEMeansInoperative() {
        final class RefusingPUKCard: FakePINCard {
            override func establishPACE(_ password: PACEPasswordType, secret: Secret, chat: CHAT?) throws -> PACEOutcome
            {
                password == .puk
                    ? .wrongPassword(.authenticationMethodBlocked)
                    : try super.establishPACE(password, secret: secret, chat: chat)
            }
        }
        let (outcome, peer, _) = run([#"{"cmd":"SET_PUK","value":"9876543210"}"#], counter: 0, card: RefusingPUKCard())
        #expect(outcome == .pukInoperative)
        #expect(peer.names.filter { $0 == "ENTER_PUK" }.count == 1, "asked once")
        #expect(peer.names.suffix(2) == ["READER", "CHANGE_PIN"], "then shown inoperative")
    }

    /// The end of input at each prompt cancels there: nothing more reaches the card, and the
    /// card is reset.
    @Test(arguments: [
        (3, [String](), "ENTER_PIN", [String]()),
        (3, [#"{"cmd":"SET_PIN","value":"123456"}"#], "ENTER_NEW_PIN", ["PACE pin"]),
        (1, [], "ENTER_CAN", []),
        (0, [], "ENTER_PUK", []),
    ])
    func endOfInputCancelsAtEveryPrompt(counter: Int, lines: [String], prompt: String, operations: [String]) {
        let channel = FakeCardChannel(mseStatus: counter == 3 ? .success : .retriesLeft(counter))
        let (outcome, peer, card) = run(lines, counter: counter, channel: channel)
        #expect(outcome == .cancelled)
        #expect(peer.names.dropLast().last == prompt)
        #expect(peer.messages.last == .changePIN(success: false, reason: "Change_Pin_User_Cancelled"))
        #expect(card.operations == operations)
        #expect(channel.resets == 1)
    }

    @Test func theStatesAreEnteredInAusweisAppsOrder() {
        let card = FakePINCard()
        let channel = FakeCardChannel(mseStatus: .success)
        let peer = ScriptedPeer([Self.pin, Self.newPIN])
        let workflow = ChangePINWorkflow(
            pace: PACEConfiguration(provider: OneReaderProvider(channel), peer: peer, openSession: { _, _ in card }))
        var names: [String] = []
        workflow.onState = { names.append($0.name) }
        #expect(workflow.run() == .changed)
        #expect(
            names == [
                "StateSelectReader", "StatePreparePace", "StateEnterPacePassword", "StateEstablishPaceChannel",
                "StateEnterNewPacePin", "StateChangePin", "StateFinished",
            ])
    }

    @Test(arguments: ["12a456", "1234", "1234567", "", "12345 "])
    func invalidPINIsRefusedWithoutTouchingTheCard(value: String) {
        let (outcome, peer, card) = run([#"{"cmd":"SET_PIN","value":"\#(value)"}"#])
        #expect(outcome == .cancelled)
        #expect(card.operations.isEmpty)
        #expect(
            peer.messages.contains(
                .enterPIN(
                    error: "You must provide 5 or 6 digits",
                    reader: ReaderInfo(name: "Test", card: .eID(CardInfo(retryCounter: 3))))))
    }

    @Test func invalidNewPINIsAskedAgain() {
        let (outcome, peer, _) = run([Self.pin, #"{"cmd":"SET_NEW_PIN","value":"12345"}"#, Self.newPIN])
        #expect(outcome == .changed)
        let errors = peer.messages.compactMap { m -> String? in
            if case .enterNewPIN(let e?, _) = m { return e } else { return nil }
        }
        #expect(errors == ["You must provide 6 digits"])
    }

    @Test func aCommandForAnotherSecretGetsBadStateAndIsDropped() {
        let (outcome, peer, _) = run([#"{"cmd":"SET_CAN","value":"500540"}"#, Self.pin, Self.newPIN])
        #expect(outcome == .changed)
        #expect(peer.messages.contains(.badState(command: "SET_CAN")))
    }

    @Test func cancelEndsWithSuccessFalse() {
        let (outcome, peer, card) = run([#"{"cmd":"CANCEL"}"#, Self.pin])
        #expect(outcome == .cancelled)
        #expect(peer.messages.last == .changePIN(success: false, reason: "Change_Pin_User_Cancelled"))
        #expect(card.operations.isEmpty)
    }

    @Test func endOfInputCancels() {
        let (outcome, _, _) = run([Self.pin])
        #expect(outcome == .cancelled)
    }

    @Test func deactivatedCardIsShownNothingIsAskedAndCancelEndsIt() {
        let peer = ScriptedPeer([], endOfInput: false)
        let workflow = ChangePINWorkflow(
            pace: PACEConfiguration(
                provider: OneReaderProvider(FakeCardChannel(mseStatus: .deactivated)), peer: peer,
                timeouts: .init(card: 10, input: 10), openSession: { _, _ in FakePINCard() }))
        // CANCEL once the workflow has shown the card and waits (at most 30 s for that).
        DispatchQueue.global().async {
            let deadline = Deadline(secondsFromNow: 30)
            while !peer.names.contains("READER") && !deadline.hasPassed { usleep(10_000) }
            peer.feed(#"{"cmd":"CANCEL"}"#)
        }
        #expect(workflow.run() == .cancelled)
        #expect(!peer.names.contains { $0.hasPrefix("ENTER_") })
        let reader = peer.messages.compactMap { m -> ReaderInfo? in
            if case .reader(let r) = m { return r } else { return nil }
        }
        #expect(reader.first?.card.eIDCard?.deactivated == true)
        #expect(peer.messages.last == .changePIN(success: false, reason: "Change_Pin_User_Cancelled"))
    }

    @Test func deactivatedCardWaitsUntilTimeout() {
        let peer = ScriptedPeer([], endOfInput: false)
        let workflow = ChangePINWorkflow(
            pace: PACEConfiguration(
                provider: OneReaderProvider(FakeCardChannel(mseStatus: .deactivated)), peer: peer,
                timeouts: .init(card: 0.3, input: 0.3), openSession: { _, _ in FakePINCard() }))
        #expect(workflow.run() == .timedOut)
        // A card is there: shown, no INSERT_CARD (AusweisApp2 sends none).
        #expect(peer.names == ["CHANGE_PIN", "READER", "CHANGE_PIN"])
    }

    @Test func removedCardEndsWithACardError() {
        let channel = FakeCardChannel(mseStatus: .success)
        let provider = OneReaderProvider(channel)
        final class RemovingCard: FakePINCard {
            var channel: FakeCardChannel?
            override func establishPACE(_ password: PACEPasswordType, secret: Secret, chat: CHAT?) throws -> PACEOutcome
            {
                channel?.removed = true
                throw CardError.cardRemoved
            }
        }
        let card = RemovingCard()
        card.channel = channel
        let peer = ScriptedPeer([Self.pin])
        let workflow = ChangePINWorkflow(
            pace: PACEConfiguration(provider: provider, peer: peer, openSession: { _, _ in card }))
        #expect(workflow.run() == .cardError(.cardRemoved))
        #expect(peer.messages.last == .changePIN(success: false, reason: "Card_Removed"))
    }
}
