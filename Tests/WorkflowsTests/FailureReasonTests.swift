import SDK
import SmartCard
import Testing

@testable import Workflows

@Suite struct FailureReasonTests {
    /// One of every reason. `covered` switches over the enum without a default, so a new reason
    /// does not compile until it is listed here, and then every test below checks it.
    static let every: [FailureReason] = [
        .userCancelled(during: .changePIN),
        .interrupted,
        .interruptedCardBusy,
        .inputTimeout(seconds: 600, during: .changePIN),
        .noTerminal,
        .pukInoperative(during: .changePIN),
        .cardRemoved(during: .changePIN),
        .cardFailed(.statusWord(.retriesLeft(2)), during: .changePIN),
        .cardFailed(.timeout, during: .changePIN),
        .readerServiceUnavailable(.readerServiceUnavailable("pcscd is not running")),
        .readerFailed(.readerFailed("the reader failed")),
        .userCancelled(during: .authentication),
        .inputTimeout(seconds: nil, during: .authentication),
        .cardRemoved(during: .authentication),
        .cardFailed(.timeout, during: .authentication),
        .pukInoperative(during: .authentication),
        .authCheckFailed(.descriptionHashMismatch),
        .authEACRefused,
        .authCardNotGenuine,
        .authUnexpectedServerMessage,
        .authMalformedServerMessage(.missingBody),
        .authConnectionFailed(.timedOut),
        .authServerResult(.error(.ageVerificationFailedWarning)),
        .authInvalidActivationURL(.missingTcTokenURL),
        .authTcTokenUnavailable(.hostNotFound(host: "service.invalid")),
        .authInvalidTcToken(.unsupportedBinding),
        .authRefreshAddressFailed(.certificateNotInDescription),
        .authCardSecurityUnusable,
        .authTransmitStopped(.securityStatusNotSatisfied),
    ]

    static func covered(_ reason: FailureReason) -> Int {
        switch reason {
        case .userCancelled(during: .changePIN): return 0
        case .interrupted: return 1
        case .interruptedCardBusy: return 2
        case .inputTimeout(_, during: .changePIN): return 3
        case .noTerminal: return 4
        case .pukInoperative(during: .changePIN): return 5
        case .cardRemoved(during: .changePIN): return 6
        case .cardFailed(.statusWord, during: .changePIN): return 7
        case .cardFailed(_, during: .changePIN): return 8
        case .readerServiceUnavailable: return 9
        case .readerFailed: return 10
        case .userCancelled(during: .authentication): return 11
        case .inputTimeout(_, during: .authentication): return 12
        case .cardRemoved(during: .authentication): return 13
        case .cardFailed(_, during: .authentication): return 14
        case .pukInoperative(during: .authentication): return 15
        case .authCheckFailed: return 16
        case .authEACRefused: return 17
        case .authCardNotGenuine: return 18
        case .authUnexpectedServerMessage: return 19
        case .authMalformedServerMessage: return 20
        case .authConnectionFailed: return 21
        case .authServerResult: return 22
        case .authInvalidActivationURL: return 23
        case .authTcTokenUnavailable: return 24
        case .authInvalidTcToken: return 25
        case .authRefreshAddressFailed: return 26
        case .authCardSecurityUnusable: return 27
        case .authTransmitStopped: return 28
        }
    }

    @Test func everyReasonIsListed() {
        #expect(Self.every.map(Self.covered) == Array(0..<29))
    }

    /// The names are an interface (scripts, STATUS and AUTH messages): they do not change.
    @Test func namesAreStableAndUnique() {
        #expect(
            Self.every.map(\.name) == [
                "Change_Pin_User_Cancelled", "Change_Pin_Interrupted", "Change_Pin_Interrupted_Card_Busy",
                "Change_Pin_Input_Timeout", "Change_Pin_No_Terminal", "Establish_Pace_Channel_Puk_Inoperative",
                "Card_Removed", "Change_Pin_Unexpected_Transmit_Status", "Change_Pin_Unrecoverable",
                "Reader_Service_Unavailable", "Reader_Failed", "User_Cancelled", "Input_Timeout",
                "Card_Removed_During_Authentication", "Card_Communication_Error",
                "Establish_Pace_Channel_Puk_Inoperative_During_Authentication",
                "Certificate_Check_Failed_Hash_Mismatch",
                "Workflow_No_Permission_Error", "Cannot_Confirm_IdCard_Authenticity",
                "Workflow_Unexpected_Message_From_EidServer", "Workflow_Unknown_Paos_From_EidServer",
                "Workflow_TrustedChannel_Error_From_Server", "Paos_Generic_Server_Error",
                "Workflow_Wrong_Parameter_Invocation", "Workflow_TrustedChannel_Establishment_Error",
                "Workflow_TrustedChannel_Server_Format_Error", "Check_Refresh_Address_Hash_Missing_In_Certificate",
                "Did_Authenticate_Eac2_Card_Command_Failed", "Card_Unexpected_Transmit_Status",
            ])
        #expect(Set(Self.every.map(\.name)).count == Self.every.count)
        // AusweisApp's spelling: capitalized words, letters and digits (Did_Authenticate_Eac2_…).
        for name in Self.every.map(\.name) {
            let words = name.split(separator: "_", omittingEmptySubsequences: false)
            #expect(
                words.allSatisfy { $0.first?.isUppercase == true && $0.allSatisfy { $0.isLetter || $0.isNumber } },
                "\(name)")
        }
    }

    /// A failure is never success: every reason has a documented non-zero exit status and an
    /// error result with a minor.
    @Test(arguments: FailureReasonTests.every)
    func everyReasonHasAnExitStatusAndAnErrorResult(reason: FailureReason) {
        let documented: Set<Int32> = [
            ExitStatus.internalError, ExitStatus.cardState, ExitStatus.serviceUnavailable, ExitStatus.cardError,
            ExitStatus.cancelled, ExitStatus.usage, ExitStatus.interrupted, ExitStatus.refused, ExitStatus.network,
        ]
        #expect(documented.contains(reason.exitStatus), "\(reason.name)")
        #expect(reason.result.major == .error)
        #expect(reason.result.minor != nil)
        #expect(reason.result.minor!.rawValue.hasPrefix("http://www.bsi.bund.de/ecard/api/1.1/resultminor/"))
    }

    /// Each sentence is one line for a person, and no reason can carry a secret into it: the
    /// card errors in reasons hold status words and the reader layer's words, never data.
    @Test(arguments: FailureReasonTests.every)
    func everySentenceIsOneLineWithoutASecret(reason: FailureReason) {
        let sentence = reason.sentence
        #expect(!sentence.isEmpty)
        #expect(!sentence.contains("\n"))
        #expect(!sentence.hasPrefix("eid:"), "the face adds the program name")
        for secret in ["123456", "12345", "500540", "9876543210"] {
            #expect(!sentence.contains(secret), "\(reason.name)")
        }
    }

    /// The sentences eid prints today, word for word (the end-to-end tests check some of them
    /// on the real binary).
    @Test func sentencesAndStatusesOfChangePIN() {
        #expect(FailureReason(.changed, timeout: 600) == nil)
        let cancelled = FailureReason(.cancelled, timeout: 600)
        #expect(cancelled == .userCancelled(during: .changePIN))
        #expect(cancelled?.sentence == "cancelled; the PIN was not changed")
        #expect(cancelled?.exitStatus == 5)
        #expect(cancelled?.isCancellation == true)
        let timedOut = FailureReason(.timedOut, timeout: 2.5)
        #expect(timedOut?.sentence == "no answer within 2 s; the PIN was not changed")
        #expect(timedOut?.exitStatus == 5)
        #expect(timedOut?.isCancellation == false)
        let puk = FailureReason(.pukInoperative, timeout: 600)
        #expect(puk?.name == "Establish_Pace_Channel_Puk_Inoperative")
        #expect(puk?.exitStatus == 2)
        #expect(puk?.result == .error(.noPermission))
        let removed = FailureReason(.cardError(.cardRemoved), timeout: 600)
        #expect(removed?.name == "Card_Removed")
        #expect(removed?.sentence == "the PIN was not changed: \(CardError.cardRemoved)")
        #expect(removed?.exitStatus == 4)
        #expect(removed?.result == .error(.cancellationByUser))
        let refused = FailureReason(.cardError(.statusWord(.securityStatusNotSatisfied)), timeout: 600)
        #expect(refused == .cardFailed(.statusWord(.securityStatusNotSatisfied), during: .changePIN))
        #expect(refused?.sentence == "the PIN was not changed: \(CardError.statusWord(.securityStatusNotSatisfied))")
        // pcscd going away during change PIN: a card error (4) with PC/SC's own sentence.
        let gone = FailureReason(.cardError(.readerServiceUnavailable("pcscd is not running")), timeout: 600)
        #expect(gone?.name == "Change_Pin_Unrecoverable")
        #expect(gone?.exitStatus == 4)
        #expect(gone?.sentence == "the PIN was not changed: pcscd is not running")
        #expect(FailureReason.interrupted.exitStatus == 130)
        #expect(FailureReason.interruptedCardBusy.isCancellation == false)
        #expect(FailureReason.noTerminal.exitStatus == 64)
    }

    /// The card refusing Terminal Authentication (the service's signature or certificates) is the
    /// service refused, as the eID server's error result is: exit 6, not a card error.
    @Test func theCardRefusingTheServicesTerminalIsARefusal() {
        #expect(FailureReason.authEACRefused.exitStatus == ExitStatus.refused)
        #expect(FailureReason.authEACRefused.result == .error(.noPermission))
        #expect(FailureReason.cardRemoved(during: .authentication).exitStatus == ExitStatus.cardError)
    }

    /// A Transmit batch the card stopped at a status word the server does not accept: the card
    /// refused the service's command, a refusal (6) as a refused terminal is, with AusweisApp's
    /// Card_Unexpected_Transmit_Status and al/common#unknownError.
    @Test func aStoppedTransmitBatchIsARefusal() {
        let stopped = FailureReason.authTransmitStopped(.securityStatusNotSatisfied)
        #expect(stopped.exitStatus == ExitStatus.refused)
        #expect(stopped.result == .error(.unknownError))
        #expect(stopped.name == "Card_Unexpected_Transmit_Status")
        #expect(stopped.sentence.contains("\(StatusWord.securityStatusNotSatisfied)"))
        #expect(!stopped.isConnectionFailure && !stopped.isCancellation)
    }

    /// Before the PAOS exchange: the URL (arguments: 64, a non-https tcTokenURL refused: 6), the
    /// TcToken fetch (network: 7) and the TcToken itself (refused: 6), each with AusweisApp's minor.
    @Test func failuresBeforeThePAOSExchange() {
        let missing = FailureReason.authInvalidActivationURL(.missingTcTokenURL)
        #expect(missing.exitStatus == 64 && missing.result == .error(.communicationError))
        let http = FailureReason.authInvalidActivationURL(.tcTokenURLNotHTTPS)
        #expect(http.exitStatus == 6 && http.result == .error(.trustedChannelEstablishmentFailed))
        #expect(http.sentence == "refused: the tcTokenURL is not https; an eID service must be reached over https")
        let unreachable = FailureReason.authTcTokenUnavailable(.connectionFailed)
        #expect(unreachable.exitStatus == 7 && unreachable.result == .error(.trustedChannelEstablishmentFailed))
        #expect(
            unreachable.sentence
                == "the TcToken could not be fetched: the connection to the server failed; is it running and reachable?"
        )
        let invalid = FailureReason.authInvalidTcToken(.unsupportedBinding)
        #expect(invalid.exitStatus == 6 && invalid.result == .error(.trustedChannelEstablishmentFailed))
        #expect(unreachable.isConnectionFailure && invalid.isConnectionFailure)
    }

    @Test func readerErrorsOfReaders() {
        let down = FailureReason(readerError: .readerServiceUnavailable("pcscd is not running; start it"))
        #expect(down.name == "Reader_Service_Unavailable")
        #expect(down.exitStatus == 3)
        #expect(down.sentence == "pcscd is not running; start it")
        let failed = FailureReason(readerError: .readerFailed("the reader failed; reconnect it"))
        #expect(failed.name == "Reader_Failed")
        #expect(failed.exitStatus == 4)
        #expect(failed.sentence == "the reader failed; reconnect it")
        #expect(FailureReason(readerError: .cardRemoved).exitStatus == 4)
    }
}
