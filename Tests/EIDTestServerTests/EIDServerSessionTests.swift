import CardSimulator
import EAC
import EIDCrypto
import EIDTestServer
import Online
import OrderedJSON
import SmartCard
import Testing

/// A clock the test moves by hand. It guards its one value with a lock, hence @unchecked.
final class ManualClock: SessionClock, @unchecked Sendable {
    private let lock = Lock()
    private var seconds = 1000.0
    func now() -> Double { lock.withLock { seconds } }
    func advance(_ delta: Double) { lock.withLock { seconds += delta } }
}

enum Fixture {
    static let origin = "https://127.0.0.1:18443"
    /// Stands for the DER of the server's TLS certificate: only its hash matters here.
    static let tlsCertificate = Array("eid-testserver TLS certificate (test)".utf8)
    static let pki: ServerPKI = {
        do { return try ServerPKI.testPKI(origin: origin, tlsCertificates: [tlsCertificate]) } catch {
            preconditionFailure("the test PKI cannot be issued: \(error)")
        }
    }()
    static let sessionIdentifier = "4e6a761c-1224-46ed-9798-ac1972faf909"

    static func session(
        faults: ServerFaults = ServerFaults(), verifications: SessionConfiguration.Verifications = .init(),
        pki: ServerPKI = Fixture.pki, clock: any SessionClock = MonotonicSessionClock()
    ) throws -> EIDServerSession {
        try EIDServerSession(
            configuration: SessionConfiguration(
                sessionIdentifier: sessionIdentifier, pki: pki, verifications: verifications,
                transactionInfo: "test order 42", faults: faults),
            clock: clock)
    }

    /// A whole exchange with the software card; the session and what the client saw.
    static func run(
        _ faults: [ServerFault] = [], tamper: Bool = false, reportUnacceptableStatus: Bool = false,
        pki: ServerPKI = Fixture.pki
    ) throws -> (EIDServerSession, TestEIDClient.Outcome) {
        var session = try session(faults: ServerFaults(Set(faults)), pki: pki)
        var client = TestEIDClient(tlsCertificate: tlsCertificate)
        client.tamperFirstResponse = tamper
        client.reportUnacceptableStatus = reportUnacceptableStatus
        let outcome = client.run(&session, sessionIdentifier: sessionIdentifier)
        return (session, outcome)
    }
}

@Suite struct EIDServerSessionTests {
    @Test func aWholeSessionReadsTheSampleData() throws {
        let (session, outcome) = try Fixture.run()
        #expect(outcome.serverResult == .ok && outcome.localError == nil)
        #expect(outcome.transmits == 2)
        #expect(session.state == .finished)
        let result = try #require(session.result)
        #expect(result.ok && result.error == nil)
        #expect(result.passiveAuthentication == .verified)
        #expect(result["GivenNames"] == .string("ERIKA"))
        #expect(result["FamilyName"] == .string("MUSTERMANN"))
        #expect(result["DateOfBirth"] == .string("1984-08-12"))
        #expect(result["ValidUntil"] == .string("2034-06-30"))
        #expect(result["PlaceOfBirth"] == .string("BERLIN"))
        #expect(result["CommunityID"] == .string("02760503150000"))
        #expect(
            result["Address"]
                == .object([
                    ("street", .string("HEIDESTRAẞE 17")), ("city", .string("KÖLN")), ("country", .string("D")),
                    ("zipCode", .string("51147")),
                ]))
        #expect(result.read.map(\.name).count == 15)
        #expect(result.jsonText.hasPrefix(#"{"ok":true,"read":{"DocumentType":"ID","IssuingCountry":"D","#))
        #expect(result.jsonText.hasSuffix(#""verified":{},"passiveAuthentication":"verified","error":null}"#))
    }

    @Test func aCardOfAnotherCSCAIsReportedNotRefused() throws {
        let key = try X509PrivateKey(generatingOn: .brainpoolP256r1)
        let otherCSCA = try X509Certificate.issue(
            subjectKey: key, country: "DE", commonName: "another CSCA", issuer: nil, issuerKey: nil, serial: 1,
            notBefore: 1_767_225_600, days: 3650, isCA: true)
        let pki = Fixture.pki
        let foreign = try ServerPKI(
            cvca: pki.cvca, documentVerifier: pki.documentVerifier, terminal: pki.terminal,
            description: pki.description, csca: otherCSCA)
        let (session, outcome) = try Fixture.run(pki: foreign)
        #expect(outcome.serverResult == .ok)
        #expect(session.result?.ok == true && session.result?.passiveAuthentication == .foreignCard)
    }

    @Test func everyResponseMACIsChecked() throws {
        let (session, outcome) = try Fixture.run(tamper: true)
        #expect(session.result?.error == .secureMessagingFailed)
        #expect(outcome.result == .error(.securityConditionNotSatisfied))
    }

    /// An online eService's AT certificate grants no CAN allowed: with it, AusweisApp2 (SDK mode)
    /// offers CanAllowed as an optional right, ACCEPT keeps it, and it asks for the CAN, not the PIN.
    @Test func theATCertificateInEAC1GrantsNoCANAllowed() throws {
        var session = try Fixture.session()
        let start = PAOSEnvelope(.startPAOS(StartPAOS(sessionIdentifier: Fixture.sessionIdentifier)))
        let reply = try #require(session.respond(toBody: start.encoded()).envelope)
        guard case .didAuthenticate(let request) = reply.message, case .eac1(let eac1) = request.data else {
            Issue.record("StartPAOS is answered with DIDAuthenticate EAC1")
            return
        }
        let certificates = try eac1.certificates.map { try CVCertificate(encoded: $0) }
        let terminal = try #require(certificates.first { $0.role == .terminal })
        #expect(!terminal.body.chat.accessRights.contains(.canAllowed))
        #expect(terminal.body.chat.accessRights.contains(.readDG4))
    }

    @Test func aMessageOutOfOrderEndsTheSession() throws {
        var session = try Fixture.session()
        let start = PAOSEnvelope(.startPAOS(StartPAOS(sessionIdentifier: Fixture.sessionIdentifier)))
        let eac1 = try #require(session.respond(toBody: start.encoded()).envelope)
        guard case .didAuthenticate = eac1.message else {
            Issue.record("StartPAOS is answered with DIDAuthenticate EAC1")
            return
        }
        let early = PAOSEnvelope(
            .transmitResponse(TransmitResponse(outputAPDUs: [[0x90, 0x00]])), relatesTo: eac1.messageID)
        let reply = try #require(session.respond(to: early).envelope)
        guard case .startPAOSResponse(let end) = reply.message else {
            Issue.record("a TransmitResponse before EAC1's answer is answered with StartPAOSResponse")
            return
        }
        #expect(end.result.ecardAPIResult == .error(.internalError))
        #expect(reply.relatesTo == early.messageID)
        #expect(session.result?.error == .unexpectedMessage(.transmitResponse))
        // After the end, nothing changes the result.
        _ = session.respond(to: start)
        #expect(session.result?.error == .unexpectedMessage(.transmitResponse))
    }

    @Test func aStartPAOSOfAnotherSessionIsRefused() throws {
        var session = try Fixture.session()
        let reply = session.respond(to: PAOSEnvelope(.startPAOS(StartPAOS(sessionIdentifier: "not-this-one"))))
        guard case .startPAOSResponse(let end)? = reply.envelope?.message else {
            Issue.record("an unknown session is answered with StartPAOSResponse")
            return
        }
        #expect(end.result.ecardAPIResult == .error(.parameterError))
        #expect(session.result?.error == .unknownSession)
    }

    @Test func aWrongRelatesToEndsTheSession() throws {
        var session = try Fixture.session()
        _ = session.respond(to: PAOSEnvelope(.startPAOS(StartPAOS(sessionIdentifier: Fixture.sessionIdentifier))))
        let answer = PAOSEnvelope(
            .didAuthenticateResponse(DIDAuthenticateResponse(result: DSSResult(.error(.cancellationByUser)), nil)),
            relatesTo: "urn:uuid:someone-else")
        _ = session.respond(to: answer)
        #expect(session.result?.error == .relatesToMismatch)
    }

    @Test func brokenXMLFromTheClientEndsTheSession() throws {
        var session = try Fixture.session()
        let reply = session.respond(toBody: Array("<soap:Envelope".utf8))
        guard case .startPAOSResponse(let end)? = reply.envelope?.message else {
            Issue.record("broken XML is answered with StartPAOSResponse")
            return
        }
        #expect(end.result.major == .error)
        guard case .malformedMessage? = session.result?.error else {
            Issue.record("the result names the malformed message")
            return
        }
    }

    @Test func aStalledSessionTimesOut() throws {
        let clock = ManualClock()
        var session = try Fixture.session(clock: clock)
        let start = PAOSEnvelope(.startPAOS(StartPAOS(sessionIdentifier: Fixture.sessionIdentifier)))
        let eac1 = try #require(session.respond(to: start).envelope)
        clock.advance(60)
        let early = session.expireIfStalled()
        #expect(!early)
        clock.advance(61)
        let expired = session.expireIfStalled()
        #expect(expired)
        #expect(session.state == .finished && session.result?.error == .timedOut)
        #expect(session.result?.json["error"]?["resultMinor"] == .string(ECardAPIResult.Minor.timeout.rawValue))
        // A late answer gets an error, and the result stays the timeout.
        let late = PAOSEnvelope(
            .didAuthenticateResponse(DIDAuthenticateResponse(result: DSSResult(.error(.cancellationByUser)), nil)),
            relatesTo: eac1.messageID)
        guard case .startPAOSResponse(let end)? = session.respond(to: late).envelope?.message else {
            Issue.record("a late answer is answered with StartPAOSResponse")
            return
        }
        #expect(end.result.major == .error && session.result?.error == .timedOut)
    }

    @Test func aLateMessageTimesTheSessionOutByItself() throws {
        let clock = ManualClock()
        var session = try Fixture.session(clock: clock)
        let eac1 = try #require(
            session.respond(to: PAOSEnvelope(.startPAOS(StartPAOS(sessionIdentifier: Fixture.sessionIdentifier))))
                .envelope)
        clock.advance(500)
        let late = PAOSEnvelope(
            .didAuthenticateResponse(DIDAuthenticateResponse(result: DSSResult(.error(.cancellationByUser)), nil)),
            relatesTo: eac1.messageID)
        guard case .startPAOSResponse(let end)? = session.respond(to: late).envelope?.message else {
            Issue.record("a late answer is answered with StartPAOSResponse")
            return
        }
        #expect(end.result.ecardAPIResult == .error(.timeout))
        #expect(session.result?.error == .timedOut)
    }

    static func run(
        eac1: (@Sendable (inout EAC1OutputType) -> Void)? = nil, eac2: (@Sendable (inout EAC2OutputType) -> Void)? = nil
    ) throws -> (EIDServerSession, TestEIDClient.Outcome) {
        var session = try Fixture.session()
        var client = TestEIDClient(tlsCertificate: Fixture.tlsCertificate)
        client.alterEAC1 = eac1
        client.alterEAC2 = eac2
        let outcome = client.run(&session, sessionIdentifier: Fixture.sessionIdentifier)
        return (session, outcome)
    }

    @Test func aWrongCATokenIsRefused() throws {
        let (session, outcome) = try Self.run(eac2: { $0.authenticationToken?[0] ^= 0x01 })
        #expect(session.result?.error == .chipAuthenticationFailed)
        #expect(outcome.result == .error(.securityConditionNotSatisfied))
        #expect(outcome.transmits == 0)
    }

    @Test func anEFCardSecurityThatIsNotValidlySignedIsRefused() throws {
        let (session, outcome) = try Self.run(eac2: { output in
            guard var file = output.efCardSecurity else { return }
            file[file.count - 1] ^= 0x01
            output.efCardSecurity = file
        })
        #expect(session.result?.error == .passiveAuthenticationFailed)
        #expect(outcome.transmits == 0)
    }

    @Test func aCHATWithoutARequiredRightIsRefused() throws {
        let (session, outcome) = try Self.run(eac1: { output in
            output.chat = CHAT(role: .terminal, rights: [.readDG4]).encoded
        })
        #expect(session.result?.error == .chatNotAsRequested)
        #expect(outcome.result == .error(.parameterError))
    }
}
