import CardSimulator
import EAC
import Online
import SDK
import SmartCard
import TestPKI
import Testing

@testable import Workflows

/// A whole authentication in process: the workflow against the software card (SimulatedEIDCard)
/// and a scripted eID server that uses EAC's terminal code and the project's test PKI.
@Suite struct AuthWorkflowTests {
    static let pin = #"{"cmd":"SET_PIN","value":"123456"}"#
    static let accept = #"{"cmd":"ACCEPT"}"#
    static let cancel = #"{"cmd":"CANCEL"}"#

    struct Run {
        let result: AuthWorkflow.Result
        let peer: ScriptedPeer
        let server: FakeEIDServer
        let card: SimulatedEIDCard
        var names: [String] { peer.names }
        var finalAuth: (AuthResult?, String?)? {
            guard case .auth(let result, let url)? = peer.messages.last else { return nil }
            return (result, url)
        }
    }

    func authenticate(
        _ lines: [String], server: FakeEIDServer? = nil, card: SimulatedEIDCard = SimulatedEIDCard(),
        trustAnchors: [CVCertificate] = [TestCertificateAuthority.project.certificate]
    ) throws -> Run {
        try authenticate(peer: ScriptedPeer(lines), server: server, card: card, trustAnchors: trustAnchors)
    }

    func authenticate(
        peer: ScriptedPeer, server: FakeEIDServer? = nil, card: SimulatedEIDCard = SimulatedEIDCard(),
        trustAnchors: [CVCertificate] = [TestCertificateAuthority.project.certificate],
        refreshClient: RefreshAddressClient? = nil
    ) throws -> Run {
        let server = try server ?? FakeEIDServer()
        let workflow = AuthWorkflow(
            configuration: .init(
                url: FakeEIDServer.tcTokenURL, trustAnchors: trustAnchors,
                date: .todayUTC(), csca: SimulatorTestPKI.csca),
            fetch: server.fetch(refreshClient: refreshClient), provider: SimulatorReaderProvider(card: card),
            peer: peer,
            timeouts: .init(card: 5, input: 5))
        return Run(result: workflow.run(), peer: peer, server: server, card: card)
    }

    @Test func success() throws {
        let run = try authenticate([Self.accept, Self.pin])
        #expect(run.result.outcome.result == .ok && run.result.outcome.reason == nil)
        #expect(run.names == ["AUTH", "ACCESS_RIGHTS", "READER", "ENTER_PIN", "AUTH"])
        #expect(run.server.dataGroup4 == [UInt8](hex: "64070c054552494b41"), "the server read DG4: ERIKA")
        #expect(run.finalAuth?.0 == AuthResult(major: ECardAPIResult.Major.ok.rawValue))
        // The SDK's url is the address as the TcToken had it (AusweisApp); the browser's has the result.
        #expect(run.finalAuth?.1 == "https://service.example/done?ref=1")
        #expect(run.result.url == "https://service.example/done?ref=1&ResultMajor=ok")
        // The effective CHAT went to the card: required DG4 and the optional DG5 the user kept.
        guard case .accessRights(let rights) = run.peer.messages[1] else {
            Issue.record("no ACCESS_RIGHTS")
            return
        }
        #expect(rights.required == ["GivenNames"] && rights.optional == ["FamilyName"])
        #expect(rights.effective == ["FamilyName", "GivenNames"])
        #expect(rights.transactionInfo == "order 42")
        let eac1 = run.server.received.compactMap { message -> EAC1OutputType? in
            guard case .didAuthenticateResponse(let r) = message, case .eac1(let o)? = r.data else { return nil }
            return o
        }.first
        #expect(eac1?.chat == CHAT(role: .terminal, rights: [.readDG4, .readDG5]).encoded)
        #expect(run.card.withContext { $0.session.eacAccess.chipAuthenticated } == false, "the card was reset")
    }

    @Test func deselectedOptionalRightIsNotInTheEffectiveCHAT() throws {
        let run = try authenticate([#"{"cmd":"SET_ACCESS_RIGHTS","chat":[]}"#, Self.accept, Self.pin])
        #expect(run.result.outcome.result == .ok && run.result.outcome.reason == nil)
        let eac1 = run.server.received.compactMap { message -> EAC1OutputType? in
            guard case .didAuthenticateResponse(let r) = message, case .eac1(let o)? = r.data else { return nil }
            return o
        }.first
        #expect(eac1?.chat == CHAT(role: .terminal, rights: [.readDG4]).encoded)
        #expect(run.names == ["AUTH", "ACCESS_RIGHTS", "ACCESS_RIGHTS", "READER", "ENTER_PIN", "AUTH"])
    }

    @Test func initializeFrameworkAndTheSignatureInEACAdditionalInput() throws {
        let run = try authenticate(
            [Self.accept, Self.pin], server: try FakeEIDServer(fault: .initializeFrameworkAndAdditionalInput))
        #expect(run.result.outcome.result == .ok && run.result.outcome.reason == nil)
        #expect(
            run.server.received.map(\.kind) == [
                .startPAOS, .initializeFrameworkResponse, .didAuthenticateResponseEAC1,
                .didAuthenticateResponseEAC2Challenge, .didAuthenticateResponseEAC2, .transmitResponse,
                .transmitResponse,
            ])
    }

    @Test func userDeniesAtTheAccessRights() throws {
        let run = try authenticate([Self.cancel])
        #expect(run.result.outcome.reason == .userCancelled(during: .authentication))
        #expect(run.result.outcome.result == .error(.cancellationByUser))
        #expect(run.names == ["AUTH", "ACCESS_RIGHTS", "AUTH"])
        #expect(run.finalAuth?.0?.minor == ECardAPIResult.Minor.cancellationByUser.rawValue)
        #expect(run.finalAuth?.0?.reason == "User_Cancelled")
        #expect(run.finalAuth?.1 == "https://service.example/done?ref=1")
        #expect(run.result.url == "https://service.example/done?ref=1&ResultMajor=error&ResultMinor=cancellationByUser")
        // The server was told, in the DIDAuthenticateResponse it waited for.
        #expect(run.server.received.last?.kind == .didAuthenticateResponseError)
        #expect(run.server.received.last?.responseResult?.minor == .known(.cancellationByUser))
        #expect(run.server.dataGroup4 == nil)
    }

    /// CANCEL acts at once wherever it comes (it jumps the queue); the end of input at a later
    /// prompt cancels there.
    @Test(arguments: [[String](), [AuthWorkflowTests.accept], [AuthWorkflowTests.cancel, AuthWorkflowTests.accept]])
    func cancelOrEndOfInputAtEachPrompt(lines: [String]) throws {
        let run = try authenticate(lines)
        #expect(run.result.outcome.reason == .userCancelled(during: .authentication))
        #expect(run.result.outcome.result == .error(.cancellationByUser))
        #expect(run.names.last == "AUTH")
        #expect(run.server.received.last?.responseResult?.major == .error)
        #expect(run.server.dataGroup4 == nil)
    }

    @Test func wrongPINThenRight() throws {
        let card = SimulatedEIDCard()
        let run = try authenticate([Self.accept, #"{"cmd":"SET_PIN","value":"111111"}"#, Self.pin], card: card)
        #expect(run.result.outcome.result == .ok && run.result.outcome.reason == nil)
        #expect(run.names == ["AUTH", "ACCESS_RIGHTS", "READER", "ENTER_PIN", "ENTER_PIN", "AUTH"])
        guard run.peer.messages.count > 4, case .enterPIN(nil, let reader) = run.peer.messages[4] else {
            Issue.record("the second ENTER_PIN is missing")
            return
        }
        #expect(reader.card.eIDCard?.retryCounter == 2)
        #expect(card.passwords.pinRetryCounter == 3, "the right PIN resets the counter")
    }

    @Test func aTransportPINIsRefusedBeforeTheCard() throws {
        let run = try authenticate([Self.accept, #"{"cmd":"SET_PIN","value":"12345"}"#])
        #expect(run.names == ["AUTH", "ACCESS_RIGHTS", "READER", "ENTER_PIN", "ENTER_PIN", "AUTH"])
        guard run.peer.messages.count > 4, case .enterPIN(let error?, _) = run.peer.messages[4] else {
            Issue.record("no error for a 5-digit PIN")
            return
        }
        #expect(error == "You must provide 6 digits")
    }

    @Test func serverResultError() throws {
        let run = try authenticate(
            [Self.accept, Self.pin], server: try FakeEIDServer(fault: .resultError(.ageVerificationFailedWarning)))
        // AusweisApp reports a server's minor of its Paos_Generic_Server_Error group as
        // unknownAPIFunction; the reason keeps the server's own.
        #expect(run.result.outcome.result == .error(.unknownAPIFunction))
        #expect(run.result.outcome.fromServer)
        #expect(run.result.outcome.reason == .authServerResult(.error(.ageVerificationFailedWarning)))
        #expect(run.finalAuth?.0?.reason == "Paos_Generic_Server_Error")
        #expect(run.result.url == "https://service.example/done?ref=1&ResultMajor=error&ResultMinor=serverError")
    }

    @Test func chainNotToATrustedCVCA() throws {
        let run = try authenticate([Self.accept, Self.pin], server: try FakeEIDServer(fault: .untrustedChain))
        guard case .authCheckFailed(.preVerificationFailed)? = run.result.outcome.reason else {
            Issue.record("not a pre-verification failure: \(String(describing: run.result.outcome.reason))")
            return
        }
        #expect(run.result.outcome.result == .error(.invalidCertificatePath))
        #expect(run.names == ["AUTH", "AUTH"], "no access rights shown, no PIN asked")
        #expect(run.server.received.last?.responseResult?.minor == .known(.invalidCertificatePath))
        // The server answered the report with an error: its result is the one AusweisApp reports.
        #expect(run.result.url == "https://service.example/done?ref=1&ResultMajor=error&ResultMinor=serverError")
    }

    @Test func descriptionHashMismatch() throws {
        let run = try authenticate(
            [Self.accept, Self.pin], server: try FakeEIDServer(fault: .descriptionHashMismatch))
        #expect(run.result.outcome.reason == .authCheckFailed(.descriptionHashMismatch))
        #expect(run.result.outcome.result == .error(.parameterError))
        #expect(run.names == ["AUTH", "AUTH"], "no PIN asked")
        #expect(run.finalAuth?.0?.minor == ECardAPIResult.Minor.parameterError.rawValue)
    }

    @Test func aWrongTASignatureIsNoPermission() throws {
        let run = try authenticate([Self.accept, Self.pin], server: try FakeEIDServer(fault: .wrongSignature))
        #expect(run.result.outcome.reason == .authEACRefused)
        #expect(run.result.outcome.result == .error(.noPermission))
        #expect(run.server.received.last?.kind == .didAuthenticateResponseError)
        #expect(run.server.dataGroup4 == nil)
    }

    /// A signature that is not the 64 bytes of an r ‖ s on the AT key's curve never reaches the
    /// card: eid reports it to the server as a malformed message (one over 65535 bytes stopped
    /// eid in the APDU builder before).
    @Test(arguments: [63, 65, 70_000]) func aSignatureOfAnotherLengthIsRefusedBeforeTheCard(length: Int) throws {
        let run = try authenticate([Self.accept, Self.pin], server: try FakeEIDServer(fault: .signatureLength(length)))
        #expect(
            run.result.outcome.reason
                == .authMalformedServerMessage(.invalidValue(message: "DIDAuthenticate", element: "Signature")))
        #expect(run.result.outcome.result == .error(.internalError))
        #expect(run.server.received.last?.kind == .didAuthenticateResponseError)
        #expect(run.server.dataGroup4 == nil)
    }

    @Test func authenticatedAuxiliaryDataAreSignedAndVerified() throws {
        let server = try FakeEIDServer(fault: .ageVerification, required: [.readDG4, .ageVerification])
        let run = try authenticate([Self.accept, Self.pin], server: server)
        #expect(run.result.outcome.result == .ok)
        #expect(server.ageVerified == .success)
        guard case .accessRights(let rights) = run.peer.messages[1] else {
            Issue.record("no ACCESS_RIGHTS")
            return
        }
        #expect(rights.aux?.ageVerificationDate == "2008-01-01")
        #expect(rights.required == ["GivenNames", "AgeVerification"])
    }

    /// TR-03124-2 EID_CLIENT_B_07: the card refuses a read (6982, not acceptable): the
    /// TransmitResponse says error with that response, and the server's next Transmit is answered
    /// (eid refused it as out of order before); the server's ok is the outcome.
    /// EID_CLIENT_B_07: the card refuses the read of round 2 (6982, not acceptable); eid stops the
    /// batch there, reports al/common#unknownError with the responses so far, takes round 3, and
    /// ends as AusweisApp2 does: the server's ok, but the authentication failed
    /// (Card_Unexpected_Transmit_Status, clientError for the browser).
    @Test func aTransmitStoppedAtAnUnacceptableStatusGoesOnWithTheNextAndFailsAtTheEnd() throws {
        let run = try authenticate([Self.accept, Self.pin], server: try FakeEIDServer(fault: .refusedRead))
        let stopped = FailureReason.authTransmitStopped(.securityStatusNotSatisfied)
        #expect(run.result.outcome == AuthOutcome(failure: stopped))
        #expect(run.server.dataGroup4 == [UInt8](hex: "64070c054552494b41"), "the server read on after the stop")
        let responses = run.server.received.compactMap { message -> TransmitResponse? in
            guard case .transmitResponse(let response) = message else { return nil }
            return response
        }
        #expect(responses.map(\.result.major) == [.ok, .error, .ok])
        #expect(responses.map(\.outputAPDUs.count) == [1, 1, 1])
        #expect(responses[1].result.ecardAPIResult == .error(.unknownError))
        #expect(run.finalAuth?.0?.minor == ECardAPIResult.Minor.unknownError.rawValue)
        #expect(run.finalAuth?.0?.reason == "Card_Unexpected_Transmit_Status")
        #expect(run.result.url == "https://service.example/done?ref=1&ResultMajor=error&ResultMinor=clientError")
    }

    @Test func theProjectCVCAIsNotTrustedUnlessAsked() throws {
        let run = try authenticate([Self.accept, Self.pin], trustAnchors: [])
        #expect(run.result.outcome.result == .error(.invalidCertificatePath))
        #expect(run.server.dataGroup4 == nil)
    }

    @Test func getCertificateAndUnknownRights() throws {
        let run = try authenticate([
            #"{"cmd":"GET_CERTIFICATE"}"#, #"{"cmd":"SET_ACCESS_RIGHTS","chat":["Address"]}"#,
            #"{"cmd":"SET_PIN","value":"123456"}"#,
        ])
        #expect(run.names == ["AUTH", "ACCESS_RIGHTS", "CERTIFICATE", "ACCESS_RIGHTS", "BAD_STATE", "AUTH"])
        guard run.peer.messages.count > 3, case .certificate(let info) = run.peer.messages[2],
            case .accessRights(let rights) = run.peer.messages[3]
        else {
            Issue.record("CERTIFICATE or ACCESS_RIGHTS missing")
            return
        }
        #expect(info.subjectName == "eid test service" && info.subjectUrl == "https://service.example")
        #expect(
            rights.error != nil && rights.effective == ["FamilyName", "GivenNames"], "an unknown right changes nothing")
    }

    /// CANCEL when ENTER_PIN, ENTER_CAN or ENTER_PUK comes (the card's PIN state decides which):
    /// the server is told, nothing is read, the card is reset.
    @Test(arguments: [(3, "ENTER_PIN"), (1, "ENTER_CAN"), (0, "ENTER_PUK")])
    func cancelAtThePasswordPrompt(retries: Int, prompt: String) throws {
        let card = SimulatedEIDCard(profile: CardProfile(pinRetries: retries))
        let peer = ReactivePeer([
            "ACCESS_RIGHTS": [Self.accept], "ENTER_PIN": [Self.cancel], "ENTER_CAN": [Self.cancel],
            "ENTER_PUK": [Self.cancel],
        ])
        let run = try authenticate(peer: peer, card: card)
        #expect(run.names == ["AUTH", "ACCESS_RIGHTS", "READER", prompt, "AUTH"])
        #expect(run.result.outcome.reason == .userCancelled(during: .authentication))
        #expect(run.server.received.last?.responseResult?.minor == .known(.cancellationByUser))
        #expect(run.server.dataGroup4 == nil)
        #expect(card.passwords.pinRetryCounter == retries, "no attempt spent")
    }

    @Test func suspendedPINThenCANThenPIN() throws {
        let card = SimulatedEIDCard(profile: CardProfile(pinRetries: 1))
        let run = try authenticate(
            [Self.accept, #"{"cmd":"SET_CAN","value":"500540"}"#, Self.pin], card: card)
        #expect(run.result.outcome.result == .ok)
        #expect(run.names == ["AUTH", "ACCESS_RIGHTS", "READER", "ENTER_CAN", "ENTER_PIN", "AUTH"])
        #expect(run.server.dataGroup4 != nil)
    }

    /// docs/protocol.md, "Refresh address check", in the workflow: the refresh address (same origin as the
    /// subjectURL) gets a HEAD for its TLS certificate; a certificate not in the description leaves no
    /// refresh URL, so the browser goes to the CommunicationErrorAddress and the success becomes
    /// communicationError.
    @Test func theRefreshAddressIsCheckedBeforeItIsGiven() throws {
        let refresh = "https://service.example/done?ref=1"
        let good = ScriptedRefreshClient([
            refresh: .success(
                RefreshAddressVisit(status: 200, location: nil, serverCertificate: FakeEIDServer.tlsCertificate))
        ])
        let run = try authenticate(peer: ScriptedPeer([Self.accept, Self.pin]), refreshClient: good)
        #expect(run.result.outcome.result == .ok && run.result.outcome.reason == nil)
        #expect(run.result.url == refresh + "&ResultMajor=ok")
        #expect(good.requests.map(\.url) == [refresh] && good.requests.map(\.headOnly) == [true])

        let stranger = ScriptedRefreshClient([
            refresh: .success(RefreshAddressVisit(status: 200, location: nil, serverCertificate: Array("other".utf8)))
        ])
        let refused = try authenticate(peer: ScriptedPeer([Self.accept, Self.pin]), refreshClient: stranger)
        #expect(refused.result.outcome.reason == .authRefreshAddressFailed(.certificateNotInDescription))
        #expect(refused.result.outcome.result == .error(.communicationError))
        #expect(refused.result.url == "https://service.example/error?ResultMajor=error&ResultMinor=communicationError")
        #expect(refused.finalAuth?.0?.major == ECardAPIResult.Major.error.rawValue)
        #expect(
            refused.finalAuth?.1 == "https://service.example/error", "the SDK's url: the address as the TcToken had it")
    }

    /// A refused EAC1 still has its description: the refresh address is checked against it, as
    /// AusweisApp does (a TLS certificate missing from CommCertificates ends at the
    /// CommunicationErrorAddress, not at a refresh address checked against nothing).
    @Test func aRefusedEAC1sDescriptionStillChecksTheRefreshAddress() throws {
        let refresh = "https://service.example/done?ref=1"
        let other = Array("a TLS certificate the description does not list".utf8)
        let server = try FakeEIDServer()
        server.serverCertificates = [other]
        let client = ScriptedRefreshClient([
            refresh: .success(RefreshAddressVisit(status: 200, location: nil, serverCertificate: other))
        ])
        let run = try authenticate(peer: ScriptedPeer([Self.accept, Self.pin]), server: server, refreshClient: client)
        guard case .authCheckFailed? = run.result.outcome.reason else {
            Issue.record("the terminal check should fail: \(String(describing: run.result.outcome.reason))")
            return
        }
        #expect(run.names == ["AUTH", "AUTH"], "no PIN asked")
        #expect(run.result.url == "https://service.example/error?ResultMajor=error&ResultMinor=communicationError")
        #expect(client.requests.map(\.url) == [refresh])
    }

    /// After EAC1 the workflow binds the transport to CommCertificates (AusweisApp's CertificateChecker on
    /// every connection): a reconnect presenting another certificate ends the authentication before the EAC1
    /// answer (the card's data after PACE with the PIN) is sent over it.
    @Test func aReconnectAfterEAC1WithAnotherCertificateSendsNothing() throws {
        let server = try FakeEIDServer()
        server.certificateAfterEAC1 = Array("another TLS certificate for the same host".utf8)
        let run = try authenticate([Self.accept, Self.pin], server: server)
        #expect(run.result.outcome.reason == .authConnectionFailed(.certificateNotInDescription))
        #expect(run.result.outcome.result == .error(.trustedChannelEstablishmentFailed))
        #expect(run.result.outcome.reason?.name == "Generic_Send_Receive_Certificate_Error")
        #expect(run.result.outcome.reason?.exitStatus == ExitStatus.refused)
        #expect(run.names == ["AUTH", "ACCESS_RIGHTS", "READER", "ENTER_PIN", "AUTH"])
        #expect(server.received.count == 1, "only StartPAOS reached the server: \(server.received.map(\.kind))")
        #expect(server.binding?(FakeEIDServer.tlsCertificate) == true)
        #expect(server.serverCertificates == [FakeEIDServer.tlsCertificate])
    }
}

/// A peer that answers each message by its name from a script, one command per message, as a
/// person at the prompt would (a CANCEL given ahead would act at once).
final class ReactivePeer: ScriptedPeer {
    private var script: [String: [String]]

    init(_ script: [String: [String]]) {
        self.script = script
        super.init([], endOfInput: false)
    }

    override func send(_ message: SDKMessage) {
        super.send(message)
        guard var lines = script[message.name], !lines.isEmpty else { return }
        feed(lines.removeFirst())
        script[message.name] = lines
    }

    override func nextCommand(timeout: Double) -> PeerInput { super.nextCommand(timeout: min(timeout, 0.2)) }
}

/// The progress STATUS reports (AusweisApp's percentages), from a whole run of the workflow.
@Suite struct AuthProgressTests {
    func progress(_ lines: [String], card: SimulatedEIDCard = SimulatedEIDCard()) throws -> [AuthProgress] {
        let server = try FakeEIDServer()
        let workflow = AuthWorkflow(
            configuration: .init(
                url: FakeEIDServer.tcTokenURL,
                trustAnchors: [TestCertificateAuthority.project.certificate], date: .todayUTC(),
                csca: SimulatorTestPKI.csca),
            fetch: server.fetch(), provider: SimulatorReaderProvider(card: card), peer: ScriptedPeer(lines),
            timeouts: .init(card: 5, input: 5))
        var seen: [AuthProgress] = []
        workflow.onProgress = { seen.append($0) }
        _ = workflow.run()
        return seen
    }

    static let order: [AuthProgress] = [
        .start, AuthProgress(percent: 0, step: .openingSecureChannel),
        AuthProgress(percent: 20, step: .verifyingProvider),
        AuthProgress(percent: 40, step: .verifyingCard), AuthProgress(percent: 60, step: .readingData),
        AuthProgress(percent: 80, step: .sendingToProvider),
    ]

    @Test func aWholeAuthenticationInAusweisAppsOrder() throws {
        #expect(try progress([AuthWorkflowTests.accept, AuthWorkflowTests.pin]) == Self.order)
    }

    /// A second PACE (wrong PIN, CAN then PIN, PUK then PIN) and a second Transmit change nothing.
    @Test func repeatedStepsReportOnce() throws {
        let wrong = #"{"cmd":"SET_PIN","value":"111111"}"#
        #expect(try progress([AuthWorkflowTests.accept, wrong, AuthWorkflowTests.pin]) == Self.order)
        let can = #"{"cmd":"SET_CAN","value":"500540"}"#
        #expect(
            try progress(
                [AuthWorkflowTests.accept, can, AuthWorkflowTests.pin],
                card: SimulatedEIDCard(profile: CardProfile(pinRetries: 1))) == Self.order)
    }

    /// An http tcTokenURL (as an SDK's RUN_AUTH names it) is refused before the TcToken: 0 %, then
    /// 80 %, as AusweisApp2 1.26.2 reports it.
    @Test func anHTTPTcTokenURLReportsZeroThen80() throws {
        let server = try FakeEIDServer()
        let workflow = AuthWorkflow(
            configuration: .init(
                url: ActivationURL.localActivationURL(tcTokenURL: "http://127.0.0.1:9/tc"),
                trustAnchors: [TestCertificateAuthority.project.certificate], date: .todayUTC(),
                csca: SimulatorTestPKI.csca),
            fetch: server.fetch(), provider: SimulatorReaderProvider(card: SimulatedEIDCard()), peer: ScriptedPeer([]),
            timeouts: .init(card: 5, input: 5))
        var seen: [AuthProgress] = []
        workflow.onProgress = { seen.append($0) }
        let result = workflow.run()
        #expect(seen.map(\.percent) == [0, 80])
        #expect(AuthResult(result.outcome).minor == ECardAPIResult.Minor.trustedChannelEstablishmentFailed.rawValue)
    }

    @Test func aCancelBeforeTheCardGoesStraightTo80() throws {
        let cancelled = try progress([AuthWorkflowTests.cancel])
        #expect(cancelled == [.start, AuthProgress(percent: 80, step: .sendingToProvider)])
    }

    @Test func enteringAStateOnlyReportsAChange() {
        let start = AuthProgress.start
        let accepted = AuthStateTests.accepted
        #expect(AuthProgress.after(nil, entering: .getTcToken(tcTokenURL: FakeEIDServer.tcTokenURL)) == start)
        #expect(start.entering(.getTcToken(tcTokenURL: FakeEIDServer.tcTokenURL)) == nil)
        #expect(start.entering(.editAccessRights(accepted.terminal)) == nil)
        let channel = start.entering(.pace(.establishPaceChannel(.pin, PACEProgress(retryCounter: 3)), accepted))
        #expect(channel == AuthProgress(percent: 0, step: .openingSecureChannel))
        #expect(channel?.entering(.pace(.establishPaceChannel(.pin, PACEProgress(retryCounter: 2)), accepted)) == nil)
        let transmit = AuthProgress(percent: 60, step: .readingData)
        #expect(transmit.entering(.transmit(accepted.terminal, stopped: nil)) == nil)
    }
}

/// Transmit forwards the server's APDUs to the card byte for byte and the answers back the same.
@Suite struct TransmitUnchangedTests {
    /// Records the bytes that reach the card, by whichever method they come.
    final class RecordingChannel: CardConnection {
        var received: [[UInt8]] = []
        let answer: [UInt8]
        init(answer: [UInt8]) { self.answer = answer }
        var supportsExtendedLength: Bool { true }
        func transmit(_ command: CommandAPDU) throws -> ResponseAPDU {
            received.append(command.bytes)
            return try ResponseAPDU(bytes: answer)
        }
        func transmit(encoded: [UInt8]) throws -> [UInt8] {
            received.append(encoded)
            return answer
        }
        func disconnect(resetCard: Bool) {}
    }

    /// Valid encodings that are not the minimal one: extended Lc and Le where short would do, an
    /// extended Le of 256; parsing and re-encoding would change each of them.
    static let nonMinimal: [[UInt8]] = [
        [UInt8](hex: "0cb00000" + "00000d" + "970100" + "8e08a1b2c3d4e5f60708" + "0100")!,
        [UInt8](hex: "0cb00000" + "000100")!,
        [UInt8](hex: "0ca4040c" + "00000d" + "870501aabbccdd" + "8e04a1b2c3d4")!,
    ]

    @Test(arguments: nonMinimal)
    func theCardGetsTheServersBytes(apdu: [UInt8]) throws {
        // Checks that the example really is one a parse and re-encode would change.
        #expect(try CommandAPDU(bytes: apdu).bytes != apdu)
        let channel = RecordingChannel(answer: [0x99, 0x02, 0x90, 0x00, 0x90, 0x00])
        let info = PACEInfo(protocol: PACEProtocol.ecdhGenericMappingAES128.oid, version: 2, parameterID: 13)
        let session = EIDAuthCardSession(channel: channel, paceInfo: info, csca: nil)
        #expect(try session.transmit(apdu) == [0x99, 0x02, 0x90, 0x00, 0x90, 0x00])
        #expect(channel.received == [apdu])
    }
}
