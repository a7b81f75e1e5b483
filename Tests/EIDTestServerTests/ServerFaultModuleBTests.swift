import EAC
import EIDTestServer
import Online
import OrderedJSON
import TestPKI
import Testing

/// The faults that stage TR-03124-2 module B (the eCard-API profile) on the server side, against
/// the test client: what each sends, that a conforming client gets the result the case asks for,
/// and that a client breaking the case's rule is caught (the end-to-end runs of `eid auth` are
/// EndToEndTests' ConformanceBTests).
@Suite struct ServerFaultModuleBTests {
    /// B_06: one Transmit with every command; the failed age verification (6300) is acceptable,
    /// so the client sends the reads after it and the server takes every response.
    @Test func transmitBatchSendsEveryCommandInOneTransmit() throws {
        let (session, outcome) = try Fixture.run([.transmitBatch])
        #expect(outcome.result == .ok)
        let result = try #require(session.result)
        #expect(result.ok && result["GivenNames"] == .string("ERIKA"))
        #expect(result.json["verified"] == .object([("AgeVerification", .bool(false))]))
        #expect(outcome.transmits == 1)
        #expect(outcome.transmitResponseCounts == [2 + result.read.count])
    }

    /// B_07: the client stops at the refused read and returns the two responses up to it (with
    /// Result ok or, as AusweisApp2, error); the server sends the rest again and ends with ok.
    @Test(arguments: [false, true]) func transmitStopGoesOnAfterTheClientStopped(errorResult: Bool) throws {
        let (session, outcome) = try Fixture.run([.transmitStop], reportUnacceptableStatus: errorResult)
        #expect(outcome.result == .ok)
        let result = try #require(session.result)
        #expect(result.ok && result["GivenNames"] == .string("ERIKA"))
        #expect(result.read.count == 15)
        #expect(outcome.transmitResponseCounts == [1, 2, result.read.count - 1])
    }

    /// B_07 with a client that sends the APDUs after the refused one: the session ends with
    /// transmit_not_stopped, naming the read.
    @Test func aClientThatDoesNotStopIsCaught() throws {
        var session = try Fixture.session(faults: ServerFaults([.transmitStop]))
        var client = TestEIDClient(tlsCertificate: Fixture.tlsCertificate)
        client.ignoreAcceptableStatusCodes = true
        let outcome = client.run(&session, sessionIdentifier: Fixture.sessionIdentifier)
        #expect(outcome.result == .error(.internalError))
        guard case .transmitNotStopped(let command)? = session.result?.error else {
            Issue.record("not transmit_not_stopped: \(String(describing: session.result?.error))")
            return
        }
        #expect(command.hasPrefix("READ BINARY DG") && command.hasSuffix("(not granted)"))
        #expect(session.result?.json["error"]?["reason"] == .string("transmit_not_stopped"))
    }

    /// B_33: one-byte AcceptableStatusCodes. A conforming client reads everything; one that takes
    /// the codes as whole status words stops after SELECT (9000 is not 90) and the session fails,
    /// which the same client does not without the fault (whole status words).
    @Test func statusPrefixesAreStartsOfStatusWords() throws {
        let (session, outcome) = try Fixture.run([.transmitStatusPrefix])
        #expect(outcome.result == .ok)
        #expect(session.result?.json["verified"] == .object([("AgeVerification", .bool(false))]))
        for faults in [[ServerFault.transmitStatusPrefix], []] as [Set<ServerFault>] {
            var session = try Fixture.session(faults: ServerFaults(faults))
            var client = TestEIDClient(tlsCertificate: Fixture.tlsCertificate)
            client.wholeStatusCodesOnly = true
            let outcome = client.run(&session, sessionIdentifier: Fixture.sessionIdentifier)
            #expect((outcome.result == .ok) == faults.isEmpty, "\(faults): \(outcome.result)")
        }
    }

    /// B_09 and B_10: EAC2InputType carries another eService's AT certificate, or an expired one;
    /// a client that ignores them (as it must) succeeds.
    @Test func eac2CertificatesAreAnotherOrAnExpiredAT() throws {
        let today = CalendarDate.todayUTC()
        let at = Fixture.pki.terminal.certificate
        for fault in [ServerFault.eac2OtherAT, .eac2ExpiredAT] {
            let (session, outcome) = try Fixture.run([fault])
            #expect(outcome.result == .ok, "\(fault)")
            #expect(session.result?["GivenNames"] == .string("ERIKA"))
            let certificates = try outcome.eac2Certificates.map { try CVCertificate(encoded: $0) }
            #expect(certificates.map(\.role) == [.terminal], "\(fault)")
            let sent = try #require(certificates.first)
            #expect(sent.body.authorityReference == at.body.authorityReference)
            #expect(sent.body.publicKey != at.body.publicKey)
            if fault == .eac2OtherAT {
                #expect(sent.body.holderReference != at.body.holderReference && sent.isValid(on: today))
            } else {
                #expect(sent.body.holderReference == at.body.holderReference)
                #expect(sent.body.expirationDate < today)
            }
        }
        #expect(try Fixture.run([]).1.eac2Certificates.isEmpty)
    }

    /// B_20–B_22: the server ends with StartPAOSResponse (al/common#internalError) right after
    /// the EAC1 output, the EAC2 output, the challenge of the EACAdditionalInputType round, or the
    /// EAC2 output of that round; nothing is read, and Chip Authentication happened only when
    /// the EAC2 output came.
    @Test(arguments: [
        (ServerFault.endAfterEAC1, false), (.endAfterEAC2, true), (.endAfterEAC2Challenge, false),
        (.endAfterEACAdditional, true),
    ])
    func anEarlyEndReportsTheServersError(_ fault: ServerFault, afterChipAuthentication: Bool) throws {
        let (session, outcome) = try Fixture.run([fault])
        #expect(outcome.serverResult?.ecardAPIResult == .error(.internalError))
        #expect(outcome.localError == nil)
        #expect(outcome.transmits == 0)
        let result = try #require(session.result)
        #expect(!result.ok && result.read.isEmpty)
        #expect(result.error == .injected(fault))
        #expect((result.passiveAuthentication == .verified) == afterChipAuthentication)
        #expect(!fault.clientSucceeds)
    }

    /// B_11–B_15: the DIDAuthenticate the fault edits lacks the element or has it twice (with the
    /// other elements kept), and the test client, parsing it as eid does, refuses it before any
    /// Transmit; the session ends with the fault, but for the description, whose refusal comes
    /// after parsing (the client reports it).
    @Test(arguments: [
        (ServerFault.eac1NoCertificate, "EAC1InputType", "Certificate", 0),
        (.eac1NoDescription, "EAC1InputType", "CertificateDescription", 0),
        (.eac1TwoDescriptions, "EAC1InputType", "CertificateDescription", 2),
        (.eac2NoEphemeralKey, "EAC2InputType", "EphemeralPublicKey", 0),
        (.eac2TwoEphemeralKeys, "EAC2InputType", "EphemeralPublicKey", 2),
    ])
    func anElementMissingOrTwice(_ fault: ServerFault, type: String, element: String, count: Int) throws {
        var session = try Fixture.session(faults: ServerFaults([fault]))
        var client = TestEIDClient(tlsCertificate: Fixture.tlsCertificate)
        var sent: [String] = []
        let outcome = client.run(sessionIdentifier: Fixture.sessionIdentifier) { body in
            let answer = session.respond(toBody: body).body
            sent.append(String(decoding: answer ?? [], as: UTF8.self))
            return answer
        }
        let edited = try #require(sent.first { $0.contains(type) }, "\(fault)")
        #expect(edited.components(separatedBy: "<\(element)>").count - 1 == count, "\(fault): \(edited)")
        if element == "CertificateDescription" {
            #expect(edited.contains("<Certificate>"), "the certificates are kept")
        } else if element == "EphemeralPublicKey" {
            #expect(edited.contains("<Signature>"), "the signature is kept")
        } else {
            #expect(edited.contains("<CertificateDescription>"), "the description is kept")
        }
        #expect(outcome.transmits == 0)
        #expect(outcome.result != .ok, "\(fault)")
        #expect(!fault.clientSucceeds)
        let result = try #require(session.result)
        #expect(!result.ok && result.read.isEmpty)
        if fault != .eac1NoDescription { #expect(result.error == .injected(fault)) }
    }

    /// B_24: the DV certificate's signature is not the CVCA's; a pre-verifying client refuses the
    /// chain before the card. B_31: the certificates in reverse order (with the link certificate of
    /// `cvca_link` too) pass. D_19: EAC1 without CHATs; the server takes the AT's rights, which a
    /// client offers then.
    @Test func dvForgedCertificatesReversedAndNoCHATs() throws {
        let (forged, refused) = try Fixture.run([.dvForged])
        #expect(refused.result == .error(.invalidCertificatePath))
        #expect(forged.result?.ok == false && refused.transmits == 0)
        for faults in [[ServerFault.certificatesReversed], [.cvcaLink, .certificatesReversed], [.eac1NoCHATs]] {
            let (session, outcome) = try Fixture.run(faults)
            #expect(outcome.result == .ok, "\(faults)")
            #expect(session.result?["GivenNames"] == .string("ERIKA"), "\(faults)")
        }
    }
}
