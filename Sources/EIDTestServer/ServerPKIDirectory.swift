import EAC
import EIDCrypto
import SmartCard
import TestPKI

/// A test PKI of the server's own, as files (`ServerPKIFile`): `generate` makes one for an
/// origin and a TLS certificate, `load` reads one back as the server's `ServerPKI` and checks
/// that everything belongs together. Neither touches the file system: the caller reads and
/// writes the bytes (the `eid-testserver` executable; tests use a dictionary).
public enum ServerPKIDirectory {
    /// A fresh CVCA (3 years), DV and AT (90 days from `date`) on brainpoolP256r1, the
    /// certificate description for `origin` with the SHA-256 of `tlsCertificate` (DER) as
    /// CommCertificates, whose hash the AT carries; a CSCA (20 years) and document signer
    /// (10 years) from `now` (seconds since 1970) less a day; a matching card's EF.CardAccess,
    /// EF.CardSecurity and Chip Authentication key. Every file but the TLS ones and `origin`.
    public static func generate(
        origin: String, tlsCertificate: [UInt8], date: CalendarDate = .todayUTC(), now: Int64
    ) throws -> [ServerPKIFile: [UInt8]] {
        let cvca = try TestCertificateAuthority.generate(
            holderReference: "DEEIDTSRV00001", effectiveDate: date, expirationDate: try date.adding(days: 3 * 365))
        let description = try ServerPKI.description(
            subjectURL: origin, commCertificates: [try Digest.sha256.hash(tlsCertificate)])
        let dv = try cvca.issueDocumentVerifier(holderReference: "DEEIDTSRVDV001", effectiveDate: date)
        let terminal = try dv.issueTerminal(
            rights: TestTerminal.eServiceRights, description: description, holderReference: "DEEIDTSRVAT001",
            effectiveDate: date, expirationDate: try date.adding(days: 90), domainParameters: cvca.domainParameters)

        let start = now - 86_400
        let cscaKey = try X509PrivateKey(generatingOn: .brainpoolP256r1)
        let csca = try X509Certificate.issue(
            subjectKey: cscaKey, country: "DE", commonName: "eid-testserver TEST ONLY CSCA", issuer: nil,
            issuerKey: nil, serial: 1, notBefore: start, days: 7305, isCA: true)
        let signerKey = try X509PrivateKey(generatingOn: .brainpoolP256r1)
        let signer = try X509Certificate.issue(
            subjectKey: signerKey, country: "DE", commonName: "eid-testserver TEST ONLY Document Signer",
            issuer: csca, issuerKey: cscaKey, serial: 2, notBefore: start, days: 3652, isCA: false)
        let card = try MatchingCard.generate()

        func hexKey(_ key: ECKeyPair) throws -> [UInt8] {
            Array((try key.privateKey.rawScalar().hexString + "\n").utf8)
        }
        return [
            .cvca: try cvca.certificate.encoded,
            .cvcaKey: try hexKey(cvca.keyPair),
            .documentVerifier: try dv.certificate.encoded,
            .documentVerifierKey: try hexKey(dv.keyPair),
            .terminal: try terminal.certificate.encoded,
            .terminalKey: try hexKey(terminal.keyPair),
            .description: description.encoded,
            .csca: csca.der,
            .documentSigner: signer.der,
            .documentSignerKey: try signerKey.pkcs8(),
            .cardAccess: card.cardAccess,
            .cardSecurity: try PassiveAuthentication.sign(card.cardSecurityInfos, signer: signer, key: signerKey),
            .cardChipAuthenticationKey: try card.chipAuthentication.staticKey.privateKey.rawScalar(),
        ]
    }

    /// The server's PKI from the files `file` returns (nil: missing), checked: every file parses,
    /// each key is its certificate's, CVCA → DV → AT verifies on `date`, the AT carries the
    /// description's hash, the description names `origin` as subject URL and holds the SHA-256 of
    /// `tlsCertificate` (DER) in CommCertificates. With `cvca.key` (optional) the server can
    /// issue the certificates of the fault `chat_beyond_dv`.
    public static func load(
        origin: String, tlsCertificate: [UInt8], date: CalendarDate = .todayUTC(),
        file: (ServerPKIFile) -> [UInt8]?
    ) throws(ServerPKIDirectoryError) -> ServerPKI {
        func bytes(_ name: ServerPKIFile) throws(ServerPKIDirectoryError) -> [UInt8] {
            guard let content = file(name) else { throw .missing(name) }
            return content
        }
        func certificate(_ name: ServerPKIFile) throws(ServerPKIDirectoryError) -> CVCertificate {
            let content = try bytes(name)
            guard let certificate = try? CVCertificate(encoded: content) else { throw .malformed(name) }
            return certificate
        }
        func key(_ name: ServerPKIFile, of certificate: CVCertificate, group: ECGroup)
            throws(ServerPKIDirectoryError) -> ECKeyPair
        {
            let text = String(decoding: try bytes(name), as: UTF8.self).filter { !$0.isWhitespace }
            guard let scalar = [UInt8](hex: text), let pair = try? ECKeyPair(group: group, privateScalar: scalar)
            else { throw .malformed(name) }
            guard pair.publicKey.encoded == certificate.body.publicKey.publicPoint else { throw .keyMismatch(name) }
            return pair
        }
        let cvca = try certificate(.cvca)
        guard cvca.role == .cvca, let group = try? cvca.body.publicKey.group(inheriting: nil) else {
            throw .malformed(.cvca)
        }
        let dvCertificate = try certificate(.documentVerifier)
        let atCertificate = try certificate(.terminal)
        let dv = IssuedCertificate(
            certificate: dvCertificate, keyPair: try key(.documentVerifierKey, of: dvCertificate, group: group))
        let at = IssuedCertificate(
            certificate: atCertificate, keyPair: try key(.terminalKey, of: atCertificate, group: group))
        let descriptionBytes = try bytes(.description)
        guard let description = try? CertificateDescription(encoded: descriptionBytes) else {
            throw .malformed(.description)
        }
        guard description.subjectURL == origin else {
            throw .descriptionNotForOrigin(subjectURL: description.subjectURL ?? "(none)", origin: origin)
        }
        guard let hash = try? Digest.sha256.hash(tlsCertificate),
            description.commCertificates?.contains(hash) == true
        else { throw .tlsCertificateNotInDescription }
        let cscaBytes = try bytes(.csca)
        guard let csca = try? X509Certificate(der: cscaBytes) else { throw .malformed(.csca) }
        var authority: TestCertificateAuthority?
        if let scalarHex = file(.cvcaKey) {
            let text = String(decoding: scalarHex, as: UTF8.self).filter { !$0.isWhitespace }
            guard let scalar = [UInt8](hex: text) else { throw .malformed(.cvcaKey) }
            guard let made = try? TestCertificateAuthority(certificate: cvca, privateScalar: scalar) else {
                throw .keyMismatch(.cvcaKey)
            }
            authority = made
        }
        do {
            return try ServerPKI(
                cvca: cvca, documentVerifier: dv, terminal: at, description: description, csca: csca,
                authority: authority, date: date)
        } catch { throw .invalid(error) }
    }
}

/// Why a test PKI directory cannot serve. Every case names what to do: make the directory again
/// with `eid-testserver pki --out DIR --origin ORIGIN` (or restore the named file).
public enum ServerPKIDirectoryError: Error, Equatable, Sendable, CustomStringConvertible {
    case missing(ServerPKIFile)
    /// The file is not what it should hold (a CV certificate, a hex key scalar, …).
    case malformed(ServerPKIFile)
    /// The key in the file is not the key of its certificate.
    case keyMismatch(ServerPKIFile)
    /// The certificate description's subject URL is not the server's origin.
    case descriptionNotForOrigin(subjectURL: String, origin: String)
    /// CommCertificates lacks the SHA-256 of the TLS certificate.
    case tlsCertificateNotInDescription
    /// The chain or the description hash do not verify.
    case invalid(ServerPKIError)

    static let remedy = "make the directory again with `eid-testserver pki --out DIR --origin ORIGIN`"

    public var description: String {
        switch self {
        case .missing(let file): return "\(file.rawValue) is missing: \(Self.remedy)"
        case .malformed(let file): return "\(file.rawValue) is not a valid \(Self.kind(of: file)): \(Self.remedy)"
        case .keyMismatch(let file): return "the key in \(file.rawValue) is not its certificate's: \(Self.remedy)"
        case .descriptionNotForOrigin(let subjectURL, let origin):
            return "the certificate description is for \(subjectURL), not for \(origin): serve on the directory's "
                + "origin or \(Self.remedy)"
        case .tlsCertificateNotInDescription:
            return "the certificate description's CommCertificates lack the SHA-256 of tls-cert.pem: \(Self.remedy)"
        case .invalid(let error): return "\(error): \(Self.remedy)"
        }
    }

    private static func kind(of file: ServerPKIFile) -> String {
        switch file {
        case .cvca, .documentVerifier, .terminal: return "CV certificate (DER)"
        case .cvcaKey, .documentVerifierKey, .terminalKey: return "private key (hex scalar on the certificate's curve)"
        case .description: return "certificate description (DER)"
        case .csca, .documentSigner: return "X.509 certificate (DER)"
        default: return "file of its kind"
        }
    }
}
