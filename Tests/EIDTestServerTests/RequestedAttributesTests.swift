import EAC
import EIDTestServer
import Online
import Testing

/// `serve --attributes LIST`: names from the SDK, TR-03127 or DGn, a trailing ? for optional;
/// the server's CHATs and what it reads follow the list.
@Suite struct RequestedAttributesTests {
    @Test func namesAndOptionalMarks() throws {
        let parsed = try RequestedAttributes(parsing: "GivenNames, familyname,DG8?,Normal place of residence?")
        #expect(parsed.required == [.readDG4, .readDG5])
        #expect(parsed.optional == [.readDG8, .readDG17])
        // Required wins when a name is given both ways.
        #expect(try RequestedAttributes(parsing: "DateOfBirth?,DateOfBirth").optional.isEmpty)
        #expect(try RequestedAttributes(parsing: "Address").required == [.readDG17])
        #expect(RequestedAttributes.all.required == SessionConfiguration.defaultRequiredRights)
    }

    @Test(arguments: ["", "GivenNames,", "?", "Pseudonym", "AgeVerification", "DG11", "DG21", "Shoe size"])
    func whatTheServerCannotReadIsRefused(_ list: String) {
        #expect(throws: RequestedAttributesError.self) { try RequestedAttributes(parsing: list) }
    }

    @Test func anUnknownNameListsTheKnownOnes() {
        let error = RequestedAttributesError.unknown("Shoe")
        #expect(error.description.contains("GivenNames") && error.description.contains("trailing ?"))
    }

    @Test func theSessionReadsWhatTheListAsksFor() throws {
        let requested = try RequestedAttributes(parsing: "GivenNames,FamilyName,DateOfBirth?")
        var session = try EIDServerSession(
            configuration: SessionConfiguration(
                sessionIdentifier: Fixture.sessionIdentifier, pki: Fixture.pki, requiredRights: requested.required,
                optionalRights: requested.optional))
        var client = TestEIDClient(tlsCertificate: Fixture.tlsCertificate)
        let outcome = client.run(&session, sessionIdentifier: Fixture.sessionIdentifier)
        #expect(outcome.serverResult == .ok)
        let result = try #require(session.result)
        #expect(result.ok)
        #expect(Set(result.read.map(\.name)) == ["GivenNames", "FamilyName", "DateOfBirth"])
    }

    /// Every right optional: EAC1InputType has no RequiredCHAT at all (TR-03124-2 C2_02), only the OptionalCHAT;
    /// with one right required, the RequiredCHAT names it.
    @Test func withEveryRightOptionalEAC1HasNoRequiredCHAT() throws {
        for (list, required) in [("GivenNames?,DateOfBirth?", nil), ("GivenNames,DateOfBirth?", [AccessRight.readDG4])]
        {
            let requested = try RequestedAttributes(parsing: list)
            var session = try EIDServerSession(
                configuration: SessionConfiguration(
                    sessionIdentifier: Fixture.sessionIdentifier, pki: Fixture.pki,
                    requiredRights: requested.required, optionalRights: requested.optional))
            let reply = session.respond(
                to: PAOSEnvelope(.startPAOS(StartPAOS(sessionIdentifier: Fixture.sessionIdentifier))))
            guard case .didAuthenticate(let request)? = reply.envelope?.message, case .eac1(let input) = request.data
            else {
                Issue.record("no EAC1 for \(list): \(String(describing: reply.envelope?.message))")
                continue
            }
            #expect(
                try input.requiredCHAT.map { try CHAT(encoded: $0).accessRights } == required.map(Set.init), "\(list)")
            let optional = try CHAT(encoded: try #require(input.optionalCHAT)).accessRights
            #expect(optional.contains(.readDG8), "\(list): \(optional)")
        }
    }
}
