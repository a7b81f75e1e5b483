import EAC
import SmartCard
import Testing

@testable import CardSimulator

@Suite struct PasswordStateTests {
    @Test func correctPINResetsTheCounter() {
        var state = PasswordState(pinRetryCounter: 2)
        #expect(state.verify(password: .pin, digits: "123456") == .success)
        #expect(state.pinRetryCounter == 3)
    }

    @Test func wrongPINsCountDownToSuspendedThenBlocked() {
        var state = PasswordState()
        #expect(state.verify(password: .pin, digits: "000000") == .wrongPassword(retriesLeft: 2))
        #expect(state.verify(password: .pin, digits: "000000") == .wrongPassword(retriesLeft: 1))
        // Suspended: without the CAN in this session, even the right PIN is refused and nothing changes.
        #expect(state.verify(password: .pin, digits: "123456") == .suspended)
        #expect(state.pinRetryCounter == 1)
        #expect(
            state.verify(password: .pin, digits: "000000", canVerifiedInSession: true)
                == .wrongPassword(retriesLeft: 0))
        #expect(state.verify(password: .pin, digits: "123456", canVerifiedInSession: true) == .blocked)
        #expect(state.pinRetryCounter == 0)
    }

    @Test func suspendedPINWorksAfterCAN() {
        var state = PasswordState(pinRetryCounter: 1)
        #expect(state.verify(password: .pin, digits: "123456", canVerifiedInSession: true) == .success)
        #expect(state.pinRetryCounter == 3)
    }

    @Test func canAndPUKHaveNoCounter() {
        var state = PasswordState()
        #expect(state.verify(password: .can, digits: "111111") == .wrongPassword(retriesLeft: nil))
        #expect(state.verify(password: .can, digits: "500540") == .success)
        #expect(state.verify(password: .puk, digits: "1111111111") == .wrongPassword(retriesLeft: nil))
        #expect(state.verify(password: .puk, digits: "9876543210") == .success)
        #expect(state == PasswordState())
        #expect(state.verify(password: .mrz, digits: "x") == .notAvailable)
    }

    @Test func pukUnblocksTenTimesThenIsInoperative() {
        var state = PasswordState(pinRetryCounter: 0)
        for left in (0..<10).reversed() {
            state.pinRetryCounter = 0
            #expect(state.unblockPIN() == .success)
            #expect(state.pinRetryCounter == 3)
            #expect(state.pukUsesLeft == left)
        }
        state.pinRetryCounter = 0
        #expect(state.unblockPIN() == .inoperative)
        #expect(state.pinRetryCounter == 0)
        #expect(state.verify(password: .puk, digits: "9876543210") == .success)  // PACE still works
        #expect(PasswordOutcome.inoperative.statusWord.rawValue == 0x6982)
    }

    @Test func changePINEndsTransportState() {
        var state = PasswordState(pin: "12345", pinRetryCounter: 2, transportPIN: true)
        #expect(state.verify(password: .pin, digits: "12345") == .success)
        #expect(state.changePIN(to: "12345") == .invalidNewPIN)
        #expect(state.changePIN(to: "12a456") == .invalidNewPIN)
        #expect(state.transportPIN)
        #expect(state.changePIN(to: "654321") == .success)
        #expect(state.pin == "654321" && !state.transportPIN && state.pinRetryCounter == 3)
    }

    @Test func mseStatusForEveryPINState() {
        #expect(PasswordState().mseOutcome(for: .pin) == .ready)
        #expect(PasswordState().mseOutcome(for: .pin).statusWord == .success)
        #expect(PasswordState(pinRetryCounter: 2).mseOutcome(for: .pin) == .retryCounter(2))
        #expect(PasswordState(pinRetryCounter: 2).mseOutcome(for: .pin).statusWord.rawValue == 0x63C2)
        #expect(PasswordState(pinRetryCounter: 1).mseOutcome(for: .pin) == .suspended)
        #expect(PasswordState(pinRetryCounter: 1).mseOutcome(for: .pin).statusWord.rawValue == 0x63C1)
        #expect(PasswordState(pinRetryCounter: 0).mseOutcome(for: .pin) == .blocked)
        #expect(PasswordState(pinRetryCounter: 0).mseOutcome(for: .pin).statusWord.rawValue == 0x63C0)
        #expect(PasswordState(pinRetryCounter: 0, deactivated: true).mseOutcome(for: .pin) == .deactivated)
        #expect(
            PasswordState(pinRetryCounter: 0, deactivated: true).mseOutcome(for: .pin).statusWord.rawValue == 0x6283)
        for ref in [PACEPasswordType.mrz, .can, .puk] {
            #expect(PasswordState(pinRetryCounter: 0, deactivated: true).mseOutcome(for: ref) == .ready)
        }
    }

    @Test func deactivatedPINStillVerifies() {
        var state = PasswordState(deactivated: true)
        #expect(state.verify(password: .pin, digits: "123456") == .success)
    }

    @Test func outcomeStatusWords() {
        #expect(PasswordOutcome.wrongPassword(retriesLeft: 2).statusWord.rawValue == 0x63C2)
        #expect(PasswordOutcome.wrongPassword(retriesLeft: nil).statusWord.rawValue == 0x6300)
        #expect(PasswordOutcome.suspended.statusWord.rawValue == 0x63C1)
        #expect(PasswordOutcome.blocked.statusWord.rawValue == 0x6983)
        #expect(PasswordOutcome.notAvailable.statusWord.rawValue == 0x6A88)
    }
}
