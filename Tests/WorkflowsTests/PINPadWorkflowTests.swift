import CardSimulator
import EAC
import Online
import SDK
import SmartCard
import TestPKI
import Testing

@testable import Workflows

/// Change PIN and authentication on a reader with a PIN pad, in process: the simulator's keypad
/// mode (`SimulatedPINPadChannel`) runs PACE and ModifyPIN itself with what its keypad types, and
/// answers with the PC/SC Part 10 AMD1 structures the workflows encode and read.
@Suite struct PINPadWorkflowTests {
    static let pin = #"{"cmd":"SET_PIN"}"#
    static let can = #"{"cmd":"SET_CAN"}"#
    static let puk = #"{"cmd":"SET_PUK"}"#
    static let newPIN = #"{"cmd":"SET_NEW_PIN"}"#

    func changePIN(
        _ lines: [String], keypad: SimulatedKeypad, card: SimulatedEIDCard = SimulatedEIDCard()
    ) -> (ChangePINWorkflow.Outcome, ScriptedPeer) {
        let peer = ScriptedPeer(lines)
        let workflow = ChangePINWorkflow(
            provider: SimulatorReaderProvider(card: card, keypad: keypad), peer: peer,
            timeouts: .init(card: 5, input: 5))
        return (workflow.run(), peer)
    }

    /// Every ENTER_* message names the reader with `keypad: true`.
    func keypadShown(_ peer: ScriptedPeer) -> Bool {
        let readers = peer.messages.compactMap { message -> ReaderInfo? in
            switch message {
            case .enterPIN(_, let r), .enterCAN(_, let r), .enterPUK(_, let r), .enterNewPIN(_, let r): return r
            default: return nil
            }
        }
        return !readers.isEmpty && readers.allSatisfy(\.keypad)
    }

    @Test func changePINOnThePad() {
        let card = SimulatedEIDCard()
        let keypad = SimulatedKeypad(pin: ["123456"], newPIN: "654321")
        let (outcome, peer) = changePIN([Self.pin, Self.newPIN], keypad: keypad, card: card)
        #expect(outcome == .changed)
        #expect(peer.names == ["CHANGE_PIN", "READER", "ENTER_PIN", "ENTER_NEW_PIN", "CHANGE_PIN"])
        #expect(keypadShown(peer))
        #expect(card.passwords.pin == "654321", "the card holds the PIN typed on the pad")
    }

    @Test func aValueOnAKeypadReaderIsRefusedBeforeTheCard() {
        let keypad = SimulatedKeypad(pin: ["123456"], newPIN: "654321")
        let (outcome, peer) = changePIN(
            [#"{"cmd":"SET_PIN","value":"123456"}"#, Self.pin, Self.newPIN], keypad: keypad)
        #expect(outcome == .changed)
        guard peer.messages.count > 3, case .enterPIN(let error?, _) = peer.messages[3] else {
            Issue.record("no error for a value on a keypad reader")
            return
        }
        #expect(error == "Value cannot be defined")
        #expect(keypad.entries[.pin] == 1, "the refused answer never reached the reader")
    }

    @Test func aWrongPINShowsTheRetryCounter() {
        let card = SimulatedEIDCard()
        let keypad = SimulatedKeypad(pin: ["111111", "123456"], newPIN: "654321")
        let (outcome, peer) = changePIN([Self.pin, Self.pin, Self.newPIN], keypad: keypad, card: card)
        #expect(outcome == .changed)
        let enters = peer.messages.filter { $0.name == "ENTER_PIN" }
        guard enters.count == 2, case .enterPIN(nil, let reader) = enters[1] else {
            Issue.record("no second ENTER_PIN")
            return
        }
        #expect(reader.card.eIDCard?.retryCounter == 2 && reader.keypad)
    }

    @Test func aSuspendedPINAsksTheCANOnThePadUntilItIsRight() {
        let card = SimulatedEIDCard(profile: CardProfile(pinRetries: 1))
        let keypad = SimulatedKeypad(pin: ["123456"], can: ["000000", "500540"], newPIN: "654321")
        let (outcome, peer) = changePIN([Self.can, Self.can, Self.pin, Self.newPIN], keypad: keypad, card: card)
        #expect(outcome == .changed)
        #expect(
            peer.names == [
                "CHANGE_PIN", "READER", "ENTER_CAN", "ENTER_CAN", "ENTER_PIN", "ENTER_NEW_PIN", "CHANGE_PIN",
            ], "a wrong CAN is asked again")
        #expect(keypadShown(peer))
    }

    @Test("EID_CLIENT_D_15: a blocked PIN asks the PUK on the reader's PIN pad, then the PIN there")
    func aBlockedPINAsksThePUKOnThePad() {
        let card = SimulatedEIDCard(profile: CardProfile(pinRetries: 0))
        let keypad = SimulatedKeypad(pin: ["123456"], puk: ["9876543210"], newPIN: "654321")
        let (outcome, peer) = changePIN([Self.puk, Self.pin, Self.newPIN], keypad: keypad, card: card)
        #expect(outcome == .changed)
        #expect(peer.names == ["CHANGE_PIN", "READER", "ENTER_PUK", "ENTER_PIN", "ENTER_NEW_PIN", "CHANGE_PIN"])
        #expect(card.passwords.pin == "654321")
    }

    @Test func cancelOnThePadCancels() {
        let card = SimulatedEIDCard()
        let (outcome, peer) = changePIN([Self.pin], keypad: SimulatedKeypad(), card: card)
        #expect(outcome == .cancelled)
        #expect(peer.messages.last == .changePIN(success: false, reason: "Change_Pin_User_Cancelled"))
        #expect(card.passwords.pinRetryCounter == 3, "nothing was tried on the card")
    }

    func authenticate(_ lines: [String], keypad: SimulatedKeypad, card: SimulatedEIDCard) throws -> (
        AuthWorkflow.Result, ScriptedPeer, FakeEIDServer
    ) {
        let server = try FakeEIDServer()
        let peer = ScriptedPeer(lines)
        let workflow = AuthWorkflow(
            configuration: .init(
                url: FakeEIDServer.tcTokenURL, trustAnchors: [TestCertificateAuthority.project.certificate],
                date: .todayUTC(), csca: SimulatorTestPKI.csca),
            fetch: server.fetch(), provider: SimulatorReaderProvider(card: card, keypad: keypad), peer: peer,
            timeouts: .init(card: 5, input: 5))
        return (workflow.run(), peer, server)
    }

    @Test func cancelOnThePadCancelsTheAuthentication() throws {
        let card = SimulatedEIDCard()
        let (result, peer, server) = try authenticate(
            [AuthWorkflowTests.accept, Self.pin], keypad: SimulatedKeypad(), card: card)
        #expect(result.outcome.reason == .userCancelled(during: .authentication))
        #expect(peer.names.last == "AUTH" && server.dataGroup4 == nil)
        #expect(card.passwords.pinRetryCounter == 3)
    }

    @Test("EID_CLIENT_D_09: a reader with a PIN pad asks for the PIN there (SET_PIN without value)")
    func authenticationOnThePad() throws {
        let card = SimulatedEIDCard()
        let keypad = SimulatedKeypad(pin: ["111111", "123456"])
        let (result, peer, server) = try authenticate(
            [AuthWorkflowTests.accept, Self.pin, Self.pin], keypad: keypad, card: card)
        #expect(result.outcome.result == .ok && result.outcome.reason == nil)
        #expect(peer.names == ["AUTH", "ACCESS_RIGHTS", "READER", "ENTER_PIN", "ENTER_PIN", "AUTH"])
        #expect(keypadShown(peer))
        #expect(server.dataGroup4 == [UInt8](hex: "64070c054552494b41"), "the server read DG4 through the reader")
        #expect(card.passwords.pinRetryCounter == 3)
        if case .enterPIN(nil, let reader)? = peer.messages.dropFirst(4).first {
            #expect(reader.card.eIDCard?.retryCounter == 2, "the wrong PIN's attempts left are shown")
        } else {
            Issue.record("no second ENTER_PIN")
        }
        // The reader showed the effective CHAT and the provider's certificate description.
        let shown = try #require(keypad.shown.last)
        #expect(try CHAT(encoded: shown.chat).terminalType == .authenticationTerminal)
        #expect(try CertificateDescription(encoded: shown.certificateDescription).subjectURL != nil)
    }
}
