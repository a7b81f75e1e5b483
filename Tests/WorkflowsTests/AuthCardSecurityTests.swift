import CardSimulator
import EAC
import EIDCrypto
import Online
import SmartCard
import TestPKI
import Testing

@testable import Workflows

/// EF.CardSecurity in the authentication (issue 15): without a CSCA the client parses the file
/// and leaves passive authentication to the eID server, as AusweisApp does; with a CSCA
/// (`eid auth --csca`) it verifies the file first.
@Suite struct AuthCardSecurityTests {
    /// A card like vsmartcard's nPA emulator without a CA key file: a fresh Chip Authentication
    /// key, written into the signed EF.CardSecurity, whose signature then no longer verifies.
    static func cardWithFreshChipAuthenticationKey() throws -> (SimulatedEIDCard, [UInt8]) {
        let card = SimulatedEIDCard()
        let fresh = try ECKeyPair.generate(group: try ECGroup(.brainpoolP256r1))
        let original = SimulatorSecurityInfos.chipAuthentication.staticKey.publicKey.encoded
        var file = SimulatorSecurityInfos.defaultCardSecurity
        let at = try #require(
            (0...(file.count - original.count)).first { Array(file[$0..<$0 + original.count]) == original })
        file.replaceSubrange(at..<at + original.count, with: fresh.publicKey.encoded)
        card.withContext { context in
            context.chipAuthentication = ChipAuthenticationCard(
                protocol: .ecdhAES128, keyID: SimulatorSecurityInfos.chipAuthenticationKeyID, staticKey: fresh)
            for index in context.fileSystem.dedicatedFiles[0].files.indices
            where context.fileSystem.dedicatedFiles[0].files[index].fileID == EIDFile.cardSecurity {
                context.fileSystem.dedicatedFiles[0].files[index].content = file
            }
        }
        return (card, file)
    }

    func authenticate(card: SimulatedEIDCard, csca: X509Certificate?) throws -> (AuthWorkflow.Result, FakeEIDServer) {
        let server = try FakeEIDServer()
        let workflow = AuthWorkflow(
            configuration: .init(
                url: FakeEIDServer.tcTokenURL,
                trustAnchors: [TestCertificateAuthority.project.certificate], date: .todayUTC(), csca: csca),
            fetch: server.fetch(), provider: SimulatorReaderProvider(card: card),
            peer: ScriptedPeer([AuthWorkflowTests.accept, AuthWorkflowTests.pin]),
            timeouts: .init(card: 5, input: 5))
        return (workflow.run(), server)
    }

    /// The EF.CardSecurity the client sent in its EAC2 output, if it got that far.
    static func sentCardSecurity(_ server: FakeEIDServer) -> [UInt8]? {
        server.received.lazy.compactMap { message -> [UInt8]? in
            guard case .didAuthenticateResponse(let r) = message, case .eac2(let o)? = r.data else { return nil }
            return o.efCardSecurity
        }.first
    }

    /// Without a CSCA the client runs Chip Authentication with the file's key and sends the file
    /// on; the server's passive authentication refuses it, and its result is the outcome.
    @Test func withoutACSCATheServerDecides() throws {
        let (card, file) = try Self.cardWithFreshChipAuthenticationKey()
        let (result, server) = try authenticate(card: card, csca: nil)
        #expect(
            Self.sentCardSecurity(server).map { $0 == file } == true, "the client reached EAC2 and sent the card's file"
        )
        // As AusweisApp reports the server's sal#securityConditionNotSatisfied.
        #expect(result.outcome.result == .error(.unknownAPIFunction))
        #expect(result.outcome.reason == .authServerResult(.error(.securityConditionNotSatisfied)))
    }

    /// A genuine card without a CSCA: the same path ends in success.
    @Test func withoutACSCAAGenuineCardSucceeds() throws {
        let (result, server) = try authenticate(card: SimulatedEIDCard(), csca: nil)
        #expect(result.outcome.result == .ok && result.outcome.reason == nil)
        #expect(server.dataGroup4 == [UInt8](hex: "64070c054552494b41"))
    }

    /// With a CSCA configured the client verifies the file and refuses the card before Chip
    /// Authentication: nothing reaches the server's EAC2.
    @Test func withACSCATheClientRefusesAFileThatDoesNotVerify() throws {
        let (card, _) = try Self.cardWithFreshChipAuthenticationKey()
        let (result, server) = try authenticate(card: card, csca: SimulatorTestPKI.csca)
        #expect(Self.sentCardSecurity(server) == nil)
        #expect(result.outcome.reason == .authCardNotGenuine)
    }

    /// Validly signed, but no ChipAuthenticationInfo: nothing to run Chip Authentication with.
    @Test func withoutACSCAAFileWithoutChipAuthenticationIsRefused() throws {
        let card = SimulatedEIDCard()
        let file = try PassiveAuthentication.sign(
            SecurityInfos(
                SimulatorSecurityInfos.securityInfos.infos.filter {
                    if case .chipAuthentication = $0 { return false } else { return true }
                }), signer: DocumentTestPKI.documentSigner, key: DocumentTestPKI.documentSignerKey)
        card.withContext { context in
            for index in context.fileSystem.dedicatedFiles[0].files.indices
            where context.fileSystem.dedicatedFiles[0].files[index].fileID == EIDFile.cardSecurity {
                context.fileSystem.dedicatedFiles[0].files[index].content = file
            }
        }
        let (result, server) = try authenticate(card: card, csca: nil)
        #expect(Self.sentCardSecurity(server) == nil)
        #expect(result.outcome.reason == .authCardSecurityUnusable)
        #expect(result.outcome.result == .error(.noPermission))
    }

    /// Not SignedData over SecurityInfos: refused without a CSCA too (strict parsing), with the
    /// result AusweisApp gives (its EAC2 command's protocol error: Workflow_No_Permission_Error).
    @Test func withoutACSCAAMalformedFileIsRefused() throws {
        let card = SimulatedEIDCard()
        card.withContext { context in
            for index in context.fileSystem.dedicatedFiles[0].files.indices
            where context.fileSystem.dedicatedFiles[0].files[index].fileID == EIDFile.cardSecurity {
                context.fileSystem.dedicatedFiles[0].files[index].content = SimulatorSecurityInfos.cardAccess
            }
        }
        let (result, server) = try authenticate(card: card, csca: nil)
        #expect(Self.sentCardSecurity(server) == nil)
        #expect(result.outcome.reason == .authCardSecurityUnusable)
        #expect(result.outcome.result == .error(.noPermission))
    }

    /// EAC2's ephemeral key as x ‖ y without the 04 (AGETO's and mtG's eID servers): AusweisApp
    /// adds the 04 to a key of even length; so does eid, and the authentication succeeds.
    @Test func anEphemeralKeyWithoutThe04PrefixIsTakenAsAusweisAppTakesIt() throws {
        let server = try FakeEIDServer(fault: .ephemeralKeyWithoutPrefix)
        let workflow = AuthWorkflow(
            configuration: .init(
                url: FakeEIDServer.tcTokenURL,
                trustAnchors: [TestCertificateAuthority.project.certificate], date: .todayUTC()),
            fetch: server.fetch(), provider: SimulatorReaderProvider(card: SimulatedEIDCard()),
            peer: ScriptedPeer([AuthWorkflowTests.accept, AuthWorkflowTests.pin]),
            timeouts: .init(card: 5, input: 5))
        let result = workflow.run()
        #expect(result.outcome.result == .ok && result.outcome.reason == nil, "\(String(describing: result.outcome))")
        #expect(server.dataGroup4 == [UInt8](hex: "64070c054552494b41"))
    }
}
