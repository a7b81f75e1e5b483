import EAC
import EIDCrypto
import TestPKI

/// What the test eID server holds (docs/protocol.md, "The eID server's side"): the CVCA the cards trust, its
/// DV certificate, the authentication terminal (AT) certificate with its private key (which
/// signs Terminal Authentication), the certificate description whose hash the AT certificate
/// carries (subject URL = the server's origin, CommCertificates = SHA-256 of its TLS
/// certificates) and the CSCA that passive authentication checks EF.CardSecurity against.
///
/// `testPKI(origin:tlsCertificates:)` builds it from the project's test CVCA (`TestPKI`), the
/// trust anchor eid-sim has by default. With the CVCA's key at hand (`authority`), the sessions
/// issue the certificates some faults need (`ServerFault`) themselves.
public struct ServerPKI: Sendable {
    public let cvca: CVCertificate
    public let documentVerifier: IssuedCertificate
    public let terminal: IssuedCertificate
    public let description: CertificateDescription
    /// The trust anchor of passive authentication.
    public let csca: X509Certificate
    /// The CVCA with its private key, when the server has it (the test PKI): needed only for
    /// the faults `chat_beyond_dv` and `cvca_link`.
    public let authority: TestCertificateAuthority?
    /// The next CVCA (`rolloverHolderReference`, a key of its own made once per server) and the
    /// link certificate to it from `cvca`, when the server has the CVCA's key: the fault
    /// `cvca_link` issues its DV and AT under it and sends the link certificate first in EAC1.
    public let rollover: CVCALink?

    /// Checks that the chain CVCA → DV → AT verifies (signatures, roles, dates) on `date`, that
    /// the AT key is the certificate's, and that the AT certificate carries the description's hash.
    public init(
        cvca: CVCertificate, documentVerifier: IssuedCertificate, terminal: IssuedCertificate,
        description: CertificateDescription, csca: X509Certificate, authority: TestCertificateAuthority? = nil,
        date: CalendarDate = .todayUTC()
    ) throws(ServerPKIError) {
        let chain: CVCertificateChain
        do {
            chain = try CVCertificateChain(
                verifying: [cvca, documentVerifier.certificate, terminal.certificate], date: date)
        } catch { throw .invalidChain("\(error)") }
        guard (try? chain.targetKey()) == terminal.keyPair.publicKey else { throw .terminalKeyMismatch }
        guard (try? description.matches(terminal.certificate)) == true else { throw .descriptionHashMismatch }
        self.cvca = cvca
        self.documentVerifier = documentVerifier
        self.terminal = terminal
        self.description = description
        self.csca = csca
        self.authority = authority
        rollover = try? authority?.link(
            to: ServerPKI.rolloverHolderReference(after: cvca.body.holderReference), effectiveDate: date,
            expirationDate: try date.adding(days: 3 * 365))
    }

    /// The CHR of the CVCA after `chr`: its sequence number (the last five characters, digits)
    /// plus one, as the BSI numbers its CVCAs (DECVCAeID00107 → DECVCAeID00108).
    public static func rolloverHolderReference(after chr: String) -> String {
        let digits = chr.suffix(5)
        guard digits.count == 5, let number = Int(digits), digits.allSatisfy(\.isNumber) else { return chr + "1" }
        let next = String(number + 1 == 100_000 ? 1 : number + 1)
        return chr.dropLast(5) + String(repeating: "0", count: 5 - next.count) + next
    }

    /// The project's test PKI: a fresh DV (90 days) and AT (30 days) from `date` under the
    /// committed test CVCA, with `rights`, and a description naming `origin` as subject URL with
    /// the SHA-256 hashes of `tlsCertificates` (DER) as CommCertificates; the test CSCA of
    /// `DocumentTestPKI`.
    public static func testPKI(
        origin: String, tlsCertificates: [[UInt8]], rights: Set<AccessRight> = TestTerminal.eServiceRights,
        date: CalendarDate = .todayUTC()
    ) throws -> ServerPKI {
        let authority = TestCertificateAuthority.project
        let dv = try authority.issueDocumentVerifier(effectiveDate: date)
        let description = try ServerPKI.description(
            subjectURL: origin, commCertificates: try tlsCertificates.map { try Digest.sha256.hash($0) })
        let terminal = try dv.issueTerminal(
            rights: rights, description: description, holderReference: "DEEIDTESTAT00001", effectiveDate: date,
            expirationDate: try date.adding(days: 30), domainParameters: authority.domainParameters)
        return try ServerPKI(
            cvca: authority.certificate, documentVerifier: dv, terminal: terminal, description: description,
            csca: DocumentTestPKI.csca, authority: authority, date: date)
    }

    /// The test server's certificate description: plain-text terms of usage with the labels
    /// AusweisApp displays.
    public static func description(subjectURL: String?, commCertificates: [[UInt8]]) throws
        -> CertificateDescription
    {
        try CertificateDescription(
            issuerName: "eid test PKI (TEST ONLY)", issuerURL: nil, subjectName: "eid-testserver (TEST ONLY)",
            subjectURL: subjectURL,
            termsOfUsage: .plainText(
                """
                Name, Anschrift und E-Mail-Adresse des Diensteanbieters:
                eid-testserver, a local test eService (TEST ONLY)
                Geschäftszweck:
                Testing eID authentication without a real card or server
                """),
            commCertificates: commCertificates)
    }

    /// The algorithm of the AT key (its certificate's), which the TA signature uses.
    public var terminalAlgorithm: TAAlgorithm { terminal.certificate.body.publicKey.algorithm }
}

/// Why certificates and keys cannot serve as the server's PKI.
public enum ServerPKIError: Error, Equatable, Sendable, CustomStringConvertible {
    /// CVCA → DV → AT does not verify (the chain error, in words).
    case invalidChain(String)
    /// The private key is not the AT certificate's key.
    case terminalKeyMismatch
    /// The AT certificate's id-description hash is not the description's.
    case descriptionHashMismatch
    /// The certificates a session's faults need could not be issued (why, in words).
    case cannotIssue(String)

    public var description: String {
        switch self {
        case .invalidChain(let reason): return "the CVCA, DV and AT certificates do not form a valid chain: \(reason)"
        case .terminalKeyMismatch: return "the terminal key is not the key of the AT certificate"
        case .descriptionHashMismatch:
            return "the AT certificate does not carry the hash of the certificate description: issue it again"
        case .cannotIssue(let reason): return "the certificates for the session's faults cannot be issued: \(reason)"
        }
    }
}
