import EAC
import SmartCard
import Testing

/// The status-word tables of MSE:Set AT, General Authenticate (refusals) and RESET RETRY
/// COUNTER, row by row.
@Suite struct CommandOutcomeTests {
    typealias MSERow = (statusWord: UInt16, outcome: MSESetATOutcome, pinRetryCounter: Int?)
    static let mseRows: [MSERow] = [
        (0x9000, .ready, 3), (0x63C3, .retryCounter(3), 3), (0x63C2, .retryCounter(2), 2),
        (0x63C1, .suspended, 1), (0x63C0, .blocked, 0), (0x6283, .deactivated, nil),
        (0x63C5, .retryCounter(5), nil),  // no eID PIN counts five: PACE goes on, no state is shown
        (0x6A80, .refused(.wrongData), nil), (0x6A88, .refused(.referenceDataNotFound), nil),
        (0x6982, .refused(.securityStatusNotSatisfied), nil), (0x6300, .refused(.authenticationFailed), nil),
    ]

    @Test(arguments: CommandOutcomeTests.mseRows)
    func mseSetATOutcomes(row: MSERow) {
        let (statusWord, outcome, pinRetryCounter) = row
        let sw = StatusWord(rawValue: statusWord)
        #expect(MSESetATOutcome(statusWord: sw) == outcome)
        #expect(outcome.statusWord == sw)
        #expect(outcome.pinRetryCounter == pinRetryCounter)
        let refused = if case .refused = outcome { true } else { false }
        #expect(outcome.allowsPACE == !refused)
    }

    @Test func mseSetATOutcomeOfAPINCounter() {
        #expect(
            (0...3).map(MSESetATOutcome.init(pinRetryCounter:)) == [.blocked, .suspended, .retryCounter(2), .ready])
    }

    typealias RefusalRow = (statusWord: UInt16, refusal: PACEPasswordRefusal?, pinRetryCounter: Int?)
    static let refusalRows: [RefusalRow] = [
        (0x63C2, .wrongPassword(retryCounter: 2), 2), (0x63C0, .wrongPassword(retryCounter: 0), 0),
        (0x6300, .wrongPassword(retryCounter: nil), nil), (0x6983, .blocked, 0), (0x6982, .suspended, 1),
        (0x6985, .suspended, 1), (0x6A80, nil, nil), (0x6A88, nil, nil), (0x9000, nil, nil),
    ]

    @Test(arguments: CommandOutcomeTests.refusalRows)
    func generalAuthenticateRefusals(row: RefusalRow) {
        let (statusWord, refusal, pinRetryCounter) = row
        let read = PACEPasswordRefusal(statusWord: StatusWord(rawValue: statusWord))
        #expect(read == refusal)
        #expect(read?.pinRetryCounter == pinRetryCounter)
    }

    @Test func resetRetryCounterOutcomes() {
        #expect(ResetRetryCounterOutcome(unblockStatus: .success) == .done)
        for sw: StatusWord in [.securityStatusNotSatisfied, .authenticationMethodBlocked, .referenceDataNotUsable] {
            #expect(ResetRetryCounterOutcome(unblockStatus: sw) == .pukInoperative)
            // A PIN change refused with these is not about the PUK.
            #expect(ResetRetryCounterOutcome(changeStatus: sw) == .refused(sw))
        }
        #expect(ResetRetryCounterOutcome(unblockStatus: .wrongLength) == .refused(.wrongLength))
        #expect(ResetRetryCounterOutcome(changeStatus: .success) == .done)
        #expect(ResetRetryCounterOutcome(changeStatus: .wrongData) == .refused(.wrongData))
    }

    @Test func passwordFormats() {
        #expect(PasswordFormat.allCases.map(\.digitCount) == [6, 5, 6, 10])
        #expect(PasswordFormat.pin.accepts("123456"))
        #expect(!PasswordFormat.pin.accepts("12345"))
        #expect(!PasswordFormat.pin.accepts("12345a"))
        #expect(PasswordFormat.transportPIN.accepts(Secret("12345")))
        #expect(!PasswordFormat.transportPIN.accepts(Secret("123456")))
        #expect(PasswordFormat.can.accepts("500540"))
        #expect(PasswordFormat.puk.accepts(Secret("9876543210")))
        #expect(!PasswordFormat.puk.accepts("987654321"))
        #expect(!PasswordFormat.puk.accepts("98765432１0"))  // a full-width digit is not ASCII
    }
}
