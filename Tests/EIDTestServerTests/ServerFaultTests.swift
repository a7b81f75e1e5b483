import EAC
import EIDCrypto
import EIDTestServer
import Online
import OrderedJSON
import TestPKI
import TestServerHTTPS
import Testing

/// Each session fault with the result a conforming client must see (what the man page says),
/// and the server's own record of it.
@Suite struct ServerFaultTests {
    /// A fault, the result the client reports, and the failure `/result` shows.
    struct Expectation: Sendable, CustomTestStringConvertible {
        let fault: ServerFault
        let clientResult: ECardAPIResult
        let failure: SessionFailure
        var testDescription: String { fault.rawValue }
    }

    static let refused: [Expectation] = [
        Expectation(
            fault: .wrongTASignature, clientResult: .error(.noPermission),
            failure: .clientReported(.error(.noPermission))),
        Expectation(
            fault: .expiredAT, clientResult: .error(.invalidCertificatePath),
            failure: .clientReported(.error(.invalidCertificatePath))),
        Expectation(
            fault: .descriptionHashMismatch, clientResult: .error(.parameterError),
            failure: .clientReported(.error(.parameterError))),
        Expectation(
            fault: .tlsNotInDescription, clientResult: .error(.trustedChannelEstablishmentFailed),
            failure: .clientReported(.error(.trustedChannelEstablishmentFailed))),
        Expectation(
            fault: .sopViolation, clientResult: .error(.parameterError),
            failure: .clientReported(.error(.parameterError))),
        Expectation(
            fault: .twoAT, clientResult: .error(.invalidCertificatePath),
            failure: .clientReported(.error(.invalidCertificatePath))),
        Expectation(
            fault: .chatBeyondDV, clientResult: .error(.unknownError),
            failure: .cardRefused(command: "READ BINARY DG9", .securityStatusNotSatisfied)),
        Expectation(
            fault: .transmitBadMAC, clientResult: .error(.securityConditionNotSatisfied),
            failure: .secureMessagingFailed),
        Expectation(fault: .finalError, clientResult: .error(.internalError), failure: .injected(.finalError)),
        Expectation(
            fault: .brokenXML, clientResult: .error(.trustedChannelEstablishmentFailed),
            failure: .injected(.brokenXML)),
        Expectation(fault: .wrongOrder, clientResult: .error(.internalError), failure: .injected(.wrongOrder)),
        Expectation(
            fault: .abortMidTransmit, clientResult: .error(.communicationError),
            failure: .injected(.abortMidTransmit)),
        Expectation(
            fault: .transmitChangePIN, clientResult: .error(.unknownError),
            failure: .cardRefused(command: "RESET RETRY COUNTER", .securityStatusNotSatisfied)),
        Expectation(
            fault: .oversizedTASignature, clientResult: .error(.internalError),
            failure: .clientReported(.error(.internalError))),
        Expectation(
            fault: .oversizedAuxData, clientResult: .error(.parameterError),
            failure: .clientReported(.error(.parameterError))),
    ]

    @Test(arguments: refused) func aFaultEndsWithTheResultTheClientMustSee(_ expectation: Expectation) throws {
        let (session, outcome) = try Fixture.run([expectation.fault])
        #expect(outcome.result == expectation.clientResult)
        let result = try #require(session.result)
        #expect(!result.ok)
        #expect(result.error == expectation.failure)
        #expect(result.json["ok"] == .bool(false))
        #expect(result.json["error"]?["reason"] == .string(expectation.failure.reason))
    }

    @Test func finalErrorComesAfterTheDataWasRead() throws {
        let (session, _) = try Fixture.run([.finalError])
        #expect(session.result?["GivenNames"] == .string("ERIKA"))
    }

    /// chat_beyond_dv: the chain passes (no certificate error), the data groups the DV grants are
    /// read, and DG9, which only the AT grants, is refused by the card.
    /// Also when the client reports the unacceptable status as AusweisApp2 does (TransmitResponse
    /// with Result error and the responses up to it): the server takes the responses it got.
    @Test(arguments: [false, true]) func chatBeyondDVReadsUpToTheDataGroupTheDVLacks(errorResult: Bool) throws {
        let (session, outcome) = try Fixture.run([.chatBeyondDV], reportUnacceptableStatus: errorResult)
        #expect(outcome.result == .error(.unknownError))
        #expect(session.result?.error == .cardRefused(command: "READ BINARY DG9", .securityStatusNotSatisfied))
        #expect(session.result?["DateOfBirth"] == .string("1984-08-12"))
        #expect(session.result?["PlaceOfBirth"] == nil)
    }

    @Test func theClientSeesTheCardRefuseTheWrongSignature() throws {
        // Without the client's own checks the card itself refuses: EXTERNAL AUTHENTICATE → 6300.
        let (_, outcome) = try Fixture.run([.wrongTASignature])
        #expect(outcome.localError == .error(.noPermission))
        #expect(outcome.serverResult?.ecardAPIResult == .error(.noPermission))
    }

    @Test(arguments: [ServerFault.initializeFramework, .eacAdditional, .auxAge, .transmitSingle, .cvcaLink])
    func aVariantStillSucceeds(_ fault: ServerFault) throws {
        let (session, outcome) = try Fixture.run([fault])
        #expect(outcome.result == .ok)
        let result = try #require(session.result)
        #expect(result.ok && result["GivenNames"] == .string("ERIKA"))
        switch fault {
        case .auxAge: #expect(result.json["verified"] == .object([("AgeVerification", .bool(true))]))
        case .transmitSingle: #expect(outcome.transmits == 16)
        default: #expect(outcome.transmits == 2)
        }
    }

    @Test func everyVerificationIsAskedAndAnswered() throws {
        var session = try Fixture.session(
            verifications: SessionConfiguration.Verifications(
                minimumAge: 60, validOn: CalendarDate(year: 2030, month: 1, day: 1), communityID: [0x02, 0x76, 0x05]))
        var client = TestEIDClient(tlsCertificate: Fixture.tlsCertificate)
        let outcome = client.run(&session, sessionIdentifier: Fixture.sessionIdentifier)
        #expect(outcome.result == .ok)
        #expect(
            session.result?.json["verified"]
                == .object([
                    ("AgeVerification", .bool(false)), ("DocumentValidity", .bool(true)),
                    ("AddressVerification", .bool(true)),
                ]))
    }

    @Test func faultNamesAreParsed() throws {
        let faults = try ServerFaults(parsing: "wrong_ta_signature,aux_age,two_at")
        #expect(faults.contains(.wrongTASignature) && faults.contains(.auxAge) && faults.contains(.twoAT))
        #expect(faults.text == "wrong_ta_signature,two_at,aux_age")
        #expect(try ServerFaults(parsing: faults.text) == faults)
        #expect(try ServerFaults(parsing: "") == ServerFaults())
        #expect(throws: ServerFaultError.unknown("nope")) { try ServerFaults(parsing: "aux_age,nope") }
        #expect(throws: ServerFaultError.repeated("aux_age")) { try ServerFaults(parsing: "aux_age,aux_age") }
        #expect(throws: ServerFaultError.unknown("")) { try ServerFaults(parsing: "aux_age,") }
        #expect(ServerFault.allCases.count == 39)
    }

    /// The front end (TestServerHTTPS, which knows no session) keeps the faults it carries out and
    /// takes their names out of the list before the session gets it: the session knows none of
    /// them, and no name may stand in both lists (it would go to the front end only).
    @Test func theFrontEndsFaultsAreNotTheSessions() {
        let transport = TransportFault.allCases.map(\.rawValue)
        #expect(
            transport == [
                "slow", "http_refresh", "redirect", "psk", "psk_protocol_no_parameters", "psk_wrong_key",
                "tls_changed_after_eac1", "empty_tctoken", "redirect_307", "redirect_404", "server_address_404",
                "refresh_404_no_error_address", "redirect_302", "redirect_http",
                "blank_tctoken", "empty_tctoken_http_error_address", "refresh_redirect", "refresh_no_redirect",
                "refresh_redirect_http", "tls2_not_resumed", "refresh_tls_not_in_description",
            ])
        #expect(Set(transport).isDisjoint(with: ServerFault.allCases.map(\.rawValue)))
        #expect(throws: ServerFaultError.unknown("slow")) { try ServerFaults(parsing: "wrong_ta_signature,slow") }
    }
}

/// What each certificate fault puts into EAC1, seen by a client that only reads it.
@Suite struct ServerFaultEAC1Tests {
    static func eac1(_ fault: ServerFault?) throws -> (EAC1InputType, [CVCertificate], CertificateDescription) {
        var session = try Fixture.session(faults: ServerFaults(fault.map { [$0] } ?? []))
        let reply = session.respond(
            to: PAOSEnvelope(.startPAOS(StartPAOS(sessionIdentifier: Fixture.sessionIdentifier))))
        guard case .didAuthenticate(let request)? = reply.envelope?.message, case .eac1(let input) = request.data else {
            throw ServerFaultError.unknown("no EAC1")
        }
        let certificates = try input.certificates.map { try CVCertificate(encoded: $0) }
        let description = try CertificateDescription(encoded: try #require(input.certificateDescription))
        return (input, certificates, description)
    }

    @Test func withoutAFaultEAC1IsWhatAClientAccepts() throws {
        let (input, certificates, description) = try Self.eac1(nil)
        #expect(certificates.map(\.role) == [.dvOfficialDomestic, .terminal])
        #expect(try description.matches(certificates[1]))
        #expect(description.subjectURL == Fixture.origin)
        #expect(description.commCertificates == [try Digest.sha256.hash(Fixture.tlsCertificate)])
        #expect(certificates[1].body.chat.isWithin(certificates[0].body.chat))
        #expect(certificates[1].isValid(on: .todayUTC()))
        #expect(input.transactionInfo == "test order 42")
        #expect(
            try CHAT(encoded: try #require(input.requiredCHAT)).accessRights
                == SessionConfiguration.defaultRequiredRights)
        #expect(input.authenticatedAuxiliaryData == nil)
    }

    @Test func eachCertificateFaultBreaksWhatItNames() throws {
        let expired = try Self.eac1(.expiredAT).1[1]
        #expect(expired.body.expirationDate < .todayUTC())
        #expect(try Self.eac1(.twoAT).1.map(\.role) == [.dvOfficialDomestic, .terminal, .terminal])
        let beyond = try Self.eac1(.chatBeyondDV).1
        #expect(!beyond[1].body.chat.isWithin(beyond[0].body.chat))
        let mismatch = try Self.eac1(.descriptionHashMismatch)
        #expect(try !mismatch.2.matches(mismatch.1[1]))
        let foreignTLS = try Self.eac1(.tlsNotInDescription)
        #expect(try foreignTLS.2.matches(foreignTLS.1[1]))
        #expect(foreignTLS.2.commCertificates?.contains(try Digest.sha256.hash(Fixture.tlsCertificate)) == false)
        let sop = try Self.eac1(.sopViolation)
        #expect(try sop.2.matches(sop.1[1]))
        #expect(!WebOrigin.isSameOrigin(try #require(sop.2.subjectURL), Fixture.origin))
        let (_, rolled, _) = try Self.eac1(.cvcaLink)
        #expect(rolled.map(\.role) == [.cvca, .dvOfficialDomestic, .terminal])
        #expect(rolled[0].body.authorityReference == Fixture.pki.cvca.body.holderReference)
        #expect(
            rolled[0].body.holderReference
                == ServerPKI.rolloverHolderReference(after: Fixture.pki.cvca.body.holderReference))
        #expect(rolled[1].body.authorityReference == rolled[0].body.holderReference)
        #expect(
            rolled[0].body.publicKey.domainParameters != nil,
            "a link certificate carries the new key's domain parameters")
        let aux = try Self.eac1(.auxAge).0
        let age = try AuthenticatedAuxiliaryData(encoded: try #require(aux.authenticatedAuxiliaryData))
        let today = CalendarDate.todayUTC()
        #expect(age.ageVerificationDate?.year == today.year - 18)
        #expect(try CHAT(encoded: try #require(aux.requiredCHAT)).accessRights.contains(.ageVerification))
    }
}
