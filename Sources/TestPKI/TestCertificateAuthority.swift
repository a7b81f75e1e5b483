import EAC
import EIDCrypto

/// A test CVCA with its private key, issuing document verifier (DV) and authentication terminal
/// (AT) certificates on demand (BSI TR-03110-3, C; docs/protocol.md, "CV certificates"). TEST ONLY: a holder of this
/// value can issue any certificate under the CVCA; nothing trusts it unless told to (`eid-sim
/// --cvca`, a test).
///
/// DV and terminal keys are on the CVCA's curve and inherit its domain parameters; every
/// signature uses the CVCA's algorithm. Certificates issued here get fresh dates (from the day
/// they are issued, for days, not years), so no committed file ever holds one a later run
/// could find expired or still valid by accident.
public struct TestCertificateAuthority: Sendable {
    public let certificate: CVCertificate
    public let keyPair: ECKeyPair

    /// The CVCA from its certificate and private key scalar; throws
    /// `TestPKIError.keyDoesNotMatchCertificate` unless the key is the certificate's.
    public init(certificate: CVCertificate, privateScalar: [UInt8]) throws {
        let group = try certificate.body.publicKey.group(inheriting: nil)
        let keyPair = try ECKeyPair(group: group, privateScalar: privateScalar)
        guard keyPair.publicKey.encoded == certificate.body.publicKey.publicPoint else {
            throw TestPKIError.keyDoesNotMatchCertificate(certificate.body.holderReference)
        }
        self.certificate = certificate
        self.keyPair = keyPair
    }

    /// A new self-signed CVCA (role CVCA, every access right) with a fresh key on `curve`.
    public static func generate(
        holderReference: String, curve: ECCurve = .brainpoolP256r1, algorithm: TAAlgorithm = .ecdsaSHA256,
        effectiveDate: CalendarDate, expirationDate: CalendarDate
    ) throws -> TestCertificateAuthority {
        let keyPair = try ECKeyPair.generate(group: try ECGroup(curve))
        let certificate = try CVCertificateBody(
            authorityReference: holderReference,
            publicKey: try CVPublicKey(algorithm: algorithm, point: keyPair.publicKey, includingDomainParameters: true),
            holderReference: holderReference, chat: CHAT(role: .cvca, rights: Set(AccessRight.allCases)),
            effectiveDate: effectiveDate, expirationDate: expirationDate
        ).signed(by: keyPair.privateKey, algorithm: algorithm)
        return try TestCertificateAuthority(certificate: certificate, privateScalar: try keyPair.privateKey.rawScalar())
    }

    public var holderReference: String { certificate.body.holderReference }
    public var algorithm: TAAlgorithm { certificate.body.publicKey.algorithm }
    /// The CVCA's explicit domain parameters, which DV and terminal keys inherit.
    public var domainParameters: ECDomainParameters? { certificate.body.publicKey.domainParameters }

    /// A DV certificate with a fresh key, valid from `effectiveDate` for `validForDays` days.
    public func issueDocumentVerifier(
        holderReference: String = "DEEIDTESTDV00001", role: CertificateRole = .dvOfficialDomestic,
        rights: Set<AccessRight> = Set(AccessRight.allCases), effectiveDate: CalendarDate = .todayUTC(),
        validForDays: Int = 90
    ) throws -> IssuedCertificate {
        guard role.isDocumentVerifier else { throw TestPKIError.wrongRole(role) }
        guard validForDays >= 0 else { throw TestPKIError.invalidValidity(days: validForDays) }
        return try IssuedCertificate.issue(
            holderReference: holderReference, chat: CHAT(role: role, rights: rights), effectiveDate: effectiveDate,
            expirationDate: try effectiveDate.adding(days: validForDays), extensions: nil,
            issuer: IssuedCertificate(certificate: certificate, keyPair: keyPair), domainParameters: domainParameters)
    }

    /// A fresh DV and, under it, an authentication terminal certificate with `rights` (and the
    /// hash of `description` as its id-description extension), both valid from `effectiveDate`:
    /// the DV for 90 days, the terminal for `validForDays` days.
    public func issueTerminal(
        rights: Set<AccessRight> = TestTerminal.defaultRights, description: CertificateDescription? = nil,
        holderReference: String = "DEEIDTESTAT00001", effectiveDate: CalendarDate = .todayUTC(),
        validForDays: Int = 30
    ) throws -> TestTerminal {
        guard validForDays >= 0 else { throw TestPKIError.invalidValidity(days: validForDays) }
        let dv = try issueDocumentVerifier(effectiveDate: effectiveDate)
        let terminal = try dv.issueTerminal(
            rights: rights, description: description, holderReference: holderReference,
            effectiveDate: effectiveDate, expirationDate: try effectiveDate.adding(days: validForDays),
            domainParameters: domainParameters)
        return TestTerminal(cvca: certificate, documentVerifier: dv, terminal: terminal)
    }
}
