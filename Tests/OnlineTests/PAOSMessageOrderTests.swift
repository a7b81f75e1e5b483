import Testing

@testable import Online

/// docs/protocol.md, "PAOS message order": which message may follow which, as both sides enforce it.
@Suite struct PAOSMessageOrderTests {
    static let start = PAOSMessage.startPAOS(StartPAOS(sessionIdentifier: "s"))
    static let initialize = PAOSMessage.initializeFramework(InitializeFramework())
    static let initialized = PAOSMessage.initializeFrameworkResponse(InitializeFrameworkResponse())
    static let eac1 = PAOSMessage.didAuthenticate(
        DIDAuthenticate(.eac1(EAC1InputType(certificates: [[0x7F]], certificateDescription: [0x30]))))
    static let eac1Out = PAOSMessage.didAuthenticateResponse(
        DIDAuthenticateResponse(.eac1(EAC1OutputType(chat: nil, efCardAccess: nil, idPICC: nil, challenge: nil))))
    static let eac2Signed = PAOSMessage.didAuthenticate(
        DIDAuthenticate(.eac2(EAC2InputType(ephemeralPublicKey: [4], signature: [1]))))
    static let eac2Unsigned = PAOSMessage.didAuthenticate(
        DIDAuthenticate(.eac2(EAC2InputType(ephemeralPublicKey: [4], signature: nil))))
    static let challengeOnly = PAOSMessage.didAuthenticateResponse(
        DIDAuthenticateResponse(.eac2(EAC2OutputType(challenge: [1, 2, 3, 4, 5, 6, 7, 8]))))
    static let additional = PAOSMessage.didAuthenticate(
        DIDAuthenticate(.eacAdditional(EACAdditionalInputType(signature: [1]))))
    static let eac2Out = PAOSMessage.didAuthenticateResponse(
        DIDAuthenticateResponse(.eac2(EAC2OutputType(efCardSecurity: [0x30], authenticationToken: [1], nonce: [2]))))
    static let transmit = PAOSMessage.transmit(Transmit(inputAPDUs: [.init([0, 0xB0, 0, 0])]))
    static let transmitted = PAOSMessage.transmitResponse(TransmitResponse(outputAPDUs: [[0x90, 0x00]]))
    static let end = PAOSMessage.startPAOSResponse(StartPAOSResponse(result: .ok))
    static let failedEAC = PAOSMessage.didAuthenticateResponse(
        DIDAuthenticateResponse(result: DSSResult(.error(.cancellationByUser)), nil))
    static let failedTransmit = PAOSMessage.transmitResponse(
        TransmitResponse(result: DSSResult(.error(.unknownError)), outputAPDUs: [[0x69, 0x82]]))
    /// A client's failure reported in the TransmitResponse: no responses.
    static let transmitError = PAOSMessage.transmitResponse(
        TransmitResponse(result: DSSResult(.error(.cancellationByUser)), outputAPDUs: []))

    static func follows(_ sequence: [PAOSMessage]) -> Bool {
        var previous: PAOSMessage?
        for message in sequence {
            guard message.mayFollow(previous) else { return false }
            previous = message
        }
        return true
    }

    @Test func theExchangesOfSection9AreInOrder() {
        #expect(
            Self.follows([
                Self.start, Self.eac1, Self.eac1Out, Self.eac2Signed, Self.eac2Out, Self.transmit, Self.transmitted,
                Self.transmit, Self.transmitted, Self.end,
            ]))
        #expect(
            Self.follows([
                Self.start, Self.initialize, Self.initialized, Self.eac1, Self.eac1Out, Self.eac2Unsigned,
                Self.challengeOnly, Self.additional, Self.eac2Out, Self.transmit, Self.transmitted, Self.end,
            ]))
    }

    @Test func theServerMayEndWheneverItIsItsTurn() {
        for previous in [
            Self.start, Self.initialized, Self.eac1Out, Self.challengeOnly, Self.eac2Out, Self.transmitted,
        ] {
            #expect(Self.end.mayFollow(previous), "\(previous.kind)")
        }
        for previous in [Self.initialize, Self.eac1, Self.eac2Signed, Self.additional, Self.transmit, Self.end] {
            #expect(!Self.end.mayFollow(previous), "the client's turn after \(previous.kind)")
        }
    }

    @Test func anErrorReportIsOnlyFollowedByTheEnd() {
        #expect(Self.follows([Self.start, Self.eac1, Self.failedEAC, Self.end]))
        #expect(!Self.follows([Self.start, Self.eac1, Self.failedEAC, Self.eac2Signed]))
        #expect(
            Self.follows([
                Self.start, Self.eac1, Self.eac1Out, Self.eac2Signed, Self.eac2Out, Self.transmit, Self.failedTransmit,
                Self.end,
            ]))
        #expect(
            !Self.follows([
                Self.start, Self.eac1, Self.eac1Out, Self.eac2Signed, Self.eac2Out, Self.transmit, Self.transmitError,
                Self.transmit,
            ]))
    }

    /// TR-03124-2 EID_CLIENT_B_07: a TransmitResponse that stopped at an unacceptable status word
    /// (Result error, the responses up to it) leaves the server free to send another Transmit, as
    /// AusweisApp2 takes it (measured with eid-testserver's transmit_stop).
    @Test func aTransmitStoppedAtAnUnacceptableStatusMayBeFollowedByTransmit() {
        #expect(
            Self.follows([
                Self.start, Self.eac1, Self.eac1Out, Self.eac2Signed, Self.eac2Out, Self.transmit, Self.failedTransmit,
                Self.transmit, Self.transmitted, Self.end,
            ]))
        #expect(!Self.failedTransmit.kind.successors.contains(.didAuthenticateEAC1))
        #expect(!Self.eac1.mayFollow(Self.failedTransmit) && Self.end.mayFollow(Self.failedTransmit))
    }

    @Test func outOfOrderMessagesAreRefused() {
        #expect(!Self.eac1.mayFollow(nil), "StartPAOS comes first")
        #expect(Self.start.mayFollow(nil))
        #expect(!Self.follows([Self.start, Self.transmit]), "no Transmit before EAC")
        #expect(!Self.follows([Self.start, Self.eac2Signed]), "no EAC2 before EAC1")
        #expect(!Self.follows([Self.start, Self.eac1, Self.eac1Out, Self.eac1]), "no EAC1 twice")
        #expect(!Self.follows([Self.start, Self.eac1, Self.transmitted]), "the client answers what was asked")
        #expect(!Self.follows([Self.start, Self.initialize, Self.initialized, Self.initialize]))
        #expect(!Self.follows([Self.start, Self.start]))
        #expect(!Self.follows([Self.start, Self.end, Self.start]), "nothing after StartPAOSResponse")
    }

    @Test func theChallengeOnlyAnswerDependsOnTheSignature() {
        #expect(!Self.follows([Self.start, Self.eac1, Self.eac1Out, Self.eac2Signed, Self.challengeOnly]))
        #expect(!Self.follows([Self.start, Self.eac1, Self.eac1Out, Self.eac2Unsigned, Self.eac2Out]))
        #expect(!Self.follows([Self.start, Self.eac1, Self.eac1Out, Self.eac2Signed, Self.eac2Out, Self.additional]))
    }

    @Test func everyKindHasItsSenderAndEveryRequestAResponse() {
        for kind in PAOSMessage.Kind.allCases {
            for next in kind.successors { #expect(next.sender != kind.sender, "\(kind) → \(next)") }
        }
        #expect(PAOSMessage.Kind.startPAOSResponse.successors.isEmpty)
    }
}
