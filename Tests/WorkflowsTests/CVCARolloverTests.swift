import EAC
import EIDCrypto
import Online
import TestPKI
import Testing

@testable import Workflows

/// A CVCA rollover as the production PKI's on 2026-11-27 (issue 15): the newest built-in CVCA
/// (a link certificate, like DECVCAeID00107) expires; the server's chain is under the next CVCA
/// and EAC1 carries the link certificate before the DV and AT. Built with the test PKI, the
/// trusted CVCAs and the clock injected: self-signed ROLL00106 (anchor), built-in link
/// 00106 → 00107 (valid to 2026-11-27), link 00107 → 00108 from the server.
@Suite struct CVCARolloverTests {
    static let tls: [UInt8] = Array("TLS certificate".utf8)
    static let url = "https://service.example/tctoken"
    static func date(_ y: Int, _ m: Int, _ d: Int) -> CalendarDate { CalendarDate(year: y, month: m, day: d)! }
    /// The day after the built-in link certificate expired.
    static let today = date(2026, 11, 28)

    let root: TestCertificateAuthority
    let builtInLink: CVCALink
    let serverLink: CVCALink
    let description: CertificateDescription
    let terminal: TestTerminal

    init() throws {
        root = try TestCertificateAuthority.generate(
            holderReference: "DEROLLCVCA00106", effectiveDate: Self.date(2020, 11, 28),
            expirationDate: Self.date(2023, 11, 27))
        builtInLink = try root.link(
            to: "DEROLLCVCA00107", effectiveDate: Self.date(2023, 11, 28), expirationDate: Self.date(2026, 11, 27))
        serverLink = try builtInLink.successor.link(
            to: "DEROLLCVCA00108", effectiveDate: Self.date(2026, 11, 20), expirationDate: Self.date(2029, 11, 19))
        description = try CertificateDescription(
            issuerName: "DV", subjectName: "Service", subjectURL: "https://service.example",
            termsOfUsage: .plainText("terms"), commCertificates: [try Digest.sha256.hash(Self.tls)])
        terminal = try serverLink.successor.issueTerminal(
            description: description, effectiveDate: Self.date(2026, 11, 24))
    }

    func check(_ certificates: [CVCertificate], date: CalendarDate = CVCARolloverTests.today) throws(AuthCheckError)
        -> TerminalCheck
    {
        let input = EAC1InputType(
            certificates: certificates.map { (try? $0.encoded) ?? [] }, certificateDescription: description.encoded,
            requiredCHAT: nil, optionalCHAT: nil)
        return try TerminalCheck(
            input, tcTokenURL: Self.url, trustAnchors: [root.certificate], linkCertificates: [builtInLink.link],
            date: date, tlsCertificates: [Self.tls])
    }

    @Test("EID_CLIENT_B_27: a chain under the new CVCA passes with the link certificate in EAC1")
    func aChainUnderTheNewCVCAPassesWithTheLinkCertificateInEAC1() throws {
        let checked = try check([serverLink.link, terminal.documentVerifier.certificate, terminal.terminal.certificate])
        #expect(
            checked.chain.certificates.map(\.body.holderReference) == [
                "DEROLLCVCA00106", "DEROLLCVCA00107", "DEROLLCVCA00108", "DEEIDTESTDV00001", "DEEIDTESTAT00001",
            ])
        #expect(checked.terminal == terminal.terminal.certificate)
    }

    @Test func theLinkCertificateMayComeInAnyPlaceOfEAC1() throws {
        let checked = try check([terminal.terminal.certificate, terminal.documentVerifier.certificate, serverLink.link])
        #expect(checked.chain.certificates.count == 5)
    }

    @Test func withoutTheLinkCertificateTheNewCVCAIsUnknown() {
        #expect(
            throws: AuthCheckError.preVerificationFailed(
                .unknownAuthority(car: "DEROLLCVCA00108", of: "DEEIDTESTDV00001"))
        ) {
            try check([terminal.documentVerifier.certificate, terminal.terminal.certificate])
        }
    }

    @Test func aChainUnderTheExpiredBuiltInCVCAIsRefused() throws {
        let old = try builtInLink.successor.issueTerminal(
            description: description, effectiveDate: Self.date(2026, 11, 1))
        // Valid the day before the built-in CVCA expired, refused the day after.
        _ = try check([old.documentVerifier.certificate, old.terminal.certificate], date: Self.date(2026, 11, 27))
        #expect(
            throws: AuthCheckError.preVerificationFailed(
                .expired(chr: "DEROLLCVCA00107", on: Self.date(2026, 11, 27)))
        ) {
            try check([old.documentVerifier.certificate, old.terminal.certificate])
        }
    }

    @Test func aLinkCertificateNotYetEffectiveIsRefused() {
        #expect(
            throws: AuthCheckError.preVerificationFailed(
                .notYetValid(chr: "DEROLLCVCA00108", from: Self.date(2026, 11, 20)))
        ) {
            try check(
                [serverLink.link, terminal.documentVerifier.certificate, terminal.terminal.certificate],
                date: Self.date(2026, 11, 19))
        }
    }
}
