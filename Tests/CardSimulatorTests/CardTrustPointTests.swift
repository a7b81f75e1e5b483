import EAC
import EIDCrypto
import SmartCard
import TestPKI
import Testing

@testable import CardSimulator

/// eid-sim's trust point through a CVCA rollover (issue 15), over its APDUs: a chain sent with a
/// link certificate first passes TA, the next PACE names the new CVCA as CAR_curr and the old as
/// CAR_prev, and after a second rollover the oldest CVCA is no trust point any more.
@Suite struct CardTrustPointTests {
    let card = SimulatedEIDCard()
    var channel: SimulatedCardChannel { SimulatedCardChannel(card: card) }
    static let chat = CHAT(role: .terminal, rights: [.readDG4])

    func pace() throws -> (PACEResult, SecureMessaging) {
        let infos = try SecurityInfos(efCardAccess: try channel.readFile(shortFileID: 0x1C))
        return try PACE(
            channel: channel, paceInfo: try infos.runnablePACEInfo(), password: .pin("123456"),
            chat: Self.chat.encoded
        ).establishSecureMessaging()
    }

    /// PACE, then TA with `chain` (from the anchor the client knows to the terminal).
    func authenticate(_ chain: [CVCertificate], terminal: TestTerminal) throws -> (String?, String?) {
        let (result, secure) = try pace()
        let ta = TerminalAuthentication(channel: secure)
        try ta.importCertificates(
            chain + [terminal.documentVerifier.certificate, terminal.terminal.certificate],
            cardTrustPoints: [result.mostRecentCAR, result.previousCAR].compactMap { $0 })
        let ephemeral = try ECKeyPair.generate(group: try ECGroup(.brainpoolP256r1))
        try ta.authenticate(
            terminal: terminal.terminal.certificate, idPICC: result.idPICC, challenge: try ta.getChallenge(),
            ephemeralKey: ephemeral.publicKey, auxiliaryData: nil,
            signer: KeyTerminalSigner(privateKey: terminal.terminal.keyPair.privateKey, algorithm: .ecdsaSHA256))
        return (result.mostRecentCAR, result.previousCAR)
    }

    @Test func theTrustPointMovesOnWithEachLinkCertificate() throws {
        let today = CalendarDate.todayUTC()
        let old = TestCertificateAuthority.project
        let first = try old.link(
            to: "DEEIDTESTCA00002", effectiveDate: today, expirationDate: try today.adding(days: 1000))
        let second = try first.successor.link(
            to: "DEEIDTESTCA00003", effectiveDate: try today.adding(days: 1),
            expirationDate: try today.adding(days: 1000))

        let underFirst = try first.successor.issueTerminal(rights: Self.chat.accessRights)
        let before = try authenticate([old.certificate, first.link], terminal: underFirst)
        #expect(before == (TestCertificateAuthority.projectHolderReference, nil))
        #expect(card.withContext { $0.session.eacAccess.terminalAuthenticated })

        // The card trusts the new CVCA now: a chain under it needs no link certificate.
        let next = try authenticate([first.successor.certificate], terminal: underFirst)
        #expect(next == ("DEEIDTESTCA00002", TestCertificateAuthority.projectHolderReference))

        let underSecond = try second.successor.issueTerminal(
            rights: Self.chat.accessRights, effectiveDate: try today.adding(days: 1))
        _ = try authenticate([first.successor.certificate, second.link], terminal: underSecond)
        let (result, secure) = try pace()
        #expect((result.mostRecentCAR, result.previousCAR) == ("DEEIDTESTCA00003", "DEEIDTESTCA00002"))
        #expect(card.withContext { $0.currentDate } == (try today.adding(days: 1)))
        // The oldest CVCA is no trust point any more: MSE:Set DST with its CHR is 6A88.
        let answer = try secure.transmit(
            .mseSetDST(authorityReference: TestCertificateAuthority.projectHolderReference))
        #expect(answer.statusWord == .referenceDataNotFound)
    }
}
