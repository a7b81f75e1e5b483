import EAC
import EIDTestServer
import Online
import TestPKI
import Testing

/// `serve --cvca-generation S --eac1-links-from B` (TR-03124-2 module C3): EAC1 carries AT, DV, then the link
/// certificates to S … B + 1, newest first; the DV under generation S.
@Suite struct CVCAChainStagingTests {
    static func eac1(_ staging: CVCAChainStaging) throws -> [CVCertificate] {
        var session = try EIDServerSession(
            configuration: SessionConfiguration(
                sessionIdentifier: Fixture.sessionIdentifier, pki: Fixture.pki, cvcaChain: staging))
        let reply = session.respond(
            to: PAOSEnvelope(.startPAOS(StartPAOS(sessionIdentifier: Fixture.sessionIdentifier))))
        guard case .didAuthenticate(let request)? = reply.envelope?.message, case .eac1(let input) = request.data else {
            throw ServerFaultError.unknown("no EAC1")
        }
        return try input.certificates.map { try CVCertificate(encoded: $0) }
    }

    @Test func eac1CarriesTheLinksFromBNewestFirst() throws {
        let staging = try #require(CVCAChainStaging(newestGeneration: 5, eac1LinksFrom: 3))
        let certificates = try Self.eac1(staging)
        #expect(certificates.map(\.role) == [.terminal, .dvOfficialDomestic, .cvca, .cvca])
        #expect(certificates[1].body.authorityReference == TestCVCAGenerations.holderReference(5))
        #expect(certificates[2...].map(\.body.holderReference) == [5, 4].map(TestCVCAGenerations.holderReference))
        let chain = try CVCertificateChain(
            verifying: [try TestCVCAGenerations.authority(3).certificate, certificates[3], certificates[2]]
                + [certificates[1], certificates[0]], date: .todayUTC())
        #expect(chain.target == certificates[0])
    }

    @Test func theFullChainAndNone() throws {
        let full = try Self.eac1(try #require(CVCAChainStaging(newestGeneration: 4)))
        #expect(full.dropFirst(2).map(\.body.authorityReference) == [3, 2, 1].map(TestCVCAGenerations.holderReference))
        let none = try Self.eac1(try #require(CVCAChainStaging(newestGeneration: 4, eac1LinksFrom: 4)))
        #expect(none.count == 2)
    }

    @Test func onlyGenerationsOfTheSeries() {
        #expect(CVCAChainStaging(newestGeneration: 0) == nil)
        #expect(CVCAChainStaging(newestGeneration: TestCVCAGenerations.maximum + 1) == nil)
        #expect(CVCAChainStaging(newestGeneration: 3, eac1LinksFrom: 4) == nil)
        #expect(CVCAChainStaging(newestGeneration: 3, eac1LinksFrom: 0) == nil)
    }
}
