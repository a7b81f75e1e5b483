import EAC
import Faces
import SDK
import SmartCard
import Testing

@testable import Workflows

/// The PACE sub-machine's effects on a fake card and a scripted peer, once for both workflows:
/// the transport PIN where it is allowed, and a card removed at each card step.
@Suite struct PACEPerformerTests {
    func performer(
        _ lines: [String], card: FakePINCard = FakePINCard(), transportPINAllowed: Bool = true
    ) -> (PACEPerformer, ScriptedPeer, FakeCardChannel) {
        let channel = FakeCardChannel(mseStatus: .success)
        let peer = ScriptedPeer(lines)
        let performer = PACEPerformer(
            PACEConfiguration(
                provider: OneReaderProvider(channel), peer: peer, timeouts: .init(card: 5, input: 5),
                openSession: { _, _ in card }),
            transportPINAllowed: transportPINAllowed)
        return (performer, peer, channel)
    }

    static let transportPIN = #"{"cmd":"SET_PIN","value":"12345"}"#

    @Test func theTransportPINWhereItIsAllowed() {
        let card = FakePINCard()
        card.pin = "12345"
        let (pace, peer, _) = performer([Self.transportPIN], card: card)
        #expect(pace.perform(.waitForCard) == .cardFound(retryCounter: 3))
        #expect(pace.perform(.ask(.pin)) == .answered)
        #expect(pace.perform(.establishPace(.pin)) == .paceEstablished)
        #expect(card.established == .pin)
        #expect(peer.names == ["ENTER_PIN"])
    }

    @Test func noTransportPINInAnAuthentication() {
        let (pace, peer, _) = performer([Self.transportPIN], transportPINAllowed: false)
        _ = pace.perform(.waitForCard)
        // The 5 digits are refused before they reach the card; then the input ends.
        #expect(pace.perform(.ask(.pin)) == .cancelled)
        #expect(peer.names == ["ENTER_PIN", "ENTER_PIN"])
        #expect(peer.messages.last == .enterPIN(error: "You must provide 6 digits", reader: pace.reader))
    }

    /// The card removed during each card step: the step gives `failed(cardRemoved)`, which ends
    /// the sub-machine (`PACEStateTests.cardRemovalCancelAndTimeoutEndEveryState`).
    @Test(arguments: [
        PACEEffect.establishPace(.pin), .establishPace(.can), .establishPace(.puk), .readRetryCounter, .unblockPIN,
    ])
    func aRemovedCardAtEachCardStep(effect: PACEEffect) {
        final class RemovedCard: FakePINCard {
            override func establishPACE(_ password: PACEPasswordType, secret: Secret, chat: CHAT?) throws
                -> PACEOutcome
            { throw CardError.cardRemoved }
            override func pinRetryCounter() throws -> Int? { throw CardError.cardRemoved }
            override func unblockPIN() throws -> StatusWord { throw CardError.cardRemoved }
        }
        let answers = [
            #"{"cmd":"SET_PIN","value":"123456"}"#, #"{"cmd":"SET_CAN","value":"500540"}"#,
            #"{"cmd":"SET_PUK","value":"9876543210"}"#,
        ]
        let (pace, _, _) = performer(answers, card: RemovedCard())
        #expect(pace.perform(.waitForCard) == .cardFound(retryCounter: 3))
        if case .establishPace(let password) = effect {
            let kind: SecretKind = password == .pin ? .pin : password == .can ? .can : .puk
            // Answer the other prompts first (BAD_STATE for them) until the one asked for comes.
            #expect(pace.perform(.ask(kind)) == .answered)
        }
        #expect(pace.perform(effect) == .failed(.cardRemoved))
    }

    /// The unblock answered 6988 without secure messaging (vsmartcard's nPA emulator, which has
    /// unblocked the PIN at PACE with the PUK): the card's answer, not a failure; dropping the
    /// card resets it and forgets the session, and the next search reads it again.
    @Test func anUnblockAnsweredWithoutSecureMessagingThenTheCardReadAgain() {
        final class EmulatedNPA: FakePINCard {
            override func unblockPIN() throws -> StatusWord { throw CardError.statusWord(.smDataObjectsIncorrect) }
        }
        let (pace, peer, channel) = performer([#"{"cmd":"SET_PUK","value":"9876543210"}"#], card: EmulatedNPA())
        #expect(pace.perform(.waitForCard) == .cardFound(retryCounter: 3))
        #expect(pace.perform(.ask(.puk)) == .answered)
        #expect(pace.perform(.establishPace(.puk)) == .paceEstablished)
        #expect(pace.perform(.unblockPIN) == .unblocked(.refused(.smDataObjectsIncorrect)))
        #expect(pace.perform(.dropCard) == nil)
        #expect(channel.resets == 1 && pace.card == nil && pace.found == nil)
        #expect(pace.perform(.waitForCard) == .cardFound(retryCounter: 3))
        #expect(pace.card != nil)
        #expect(peer.names == ["ENTER_PUK"])
    }

    /// No card (or the card taken out before it was found): INSERT_CARD once, then the card
    /// timeout ends the search.
    @Test func noCardInTheReaderTimesOut() {
        let channel = FakeCardChannel(mseStatus: .success)
        let provider = OneReaderProvider(channel)
        provider.present = false
        let peer = ScriptedPeer([], endOfInput: false)
        let pace = PACEPerformer(
            PACEConfiguration(
                provider: provider, peer: peer, timeouts: .init(card: 0.2, input: 0.2),
                openSession: { _, _ in FakePINCard() }),
            transportPINAllowed: true)
        #expect(pace.perform(.waitForCard) == .timedOut)
        #expect(peer.names == ["INSERT_CARD"])
        #expect(pace.card == nil)
    }

    @Test func theEndWipesAndResetsTheCard() {
        let (pace, _, channel) = performer([#"{"cmd":"SET_PIN","value":"123456"}"#])
        _ = pace.perform(.waitForCard)
        #expect(pace.perform(.ask(.pin)) == .answered)
        pace.end()
        #expect(pace.takeAnswer() == nil, "the answer is gone")
        #expect(channel.resets == 1)
    }
}
