import EAC
import EIDCrypto

/// A certificate the test PKI issued, with the private key of its holder (TEST ONLY).
public struct IssuedCertificate: Sendable {
    public let certificate: CVCertificate
    public let keyPair: ECKeyPair

    public init(certificate: CVCertificate, keyPair: ECKeyPair) {
        self.certificate = certificate
        self.keyPair = keyPair
    }

    public var holderReference: String { certificate.body.holderReference }

    /// An authentication terminal certificate under this DV certificate, with a fresh key on
    /// the DV's group; `domainParameters` are the CVCA's (DV and terminal keys carry none).
    public func issueTerminal(
        rights: Set<AccessRight>, description: CertificateDescription?, holderReference: String,
        effectiveDate: CalendarDate, expirationDate: CalendarDate, domainParameters: ECDomainParameters?
    ) throws -> IssuedCertificate {
        guard certificate.role.isDocumentVerifier else { throw TestPKIError.wrongRole(certificate.role) }
        let algorithm = certificate.body.publicKey.algorithm
        let extensions = try description.map {
            [CertificateExtension.description(hash: try algorithm.digest.hash($0.encoded))]
        }
        return try IssuedCertificate.issue(
            holderReference: holderReference, chat: CHAT(role: .terminal, rights: rights),
            effectiveDate: effectiveDate, expirationDate: expirationDate, extensions: extensions, issuer: self,
            domainParameters: domainParameters)
    }

    /// A certificate for a fresh key on the issuer's group, signed by the issuer with its
    /// algorithm; the key carries no domain parameters (it inherits the CVCA's).
    static func issue(
        holderReference: String, chat: CHAT, effectiveDate: CalendarDate, expirationDate: CalendarDate,
        extensions: [CertificateExtension]?, issuer: IssuedCertificate, domainParameters: ECDomainParameters?
    ) throws -> IssuedCertificate {
        let algorithm = issuer.certificate.body.publicKey.algorithm
        let keyPair = try ECKeyPair.generate(group: issuer.keyPair.privateKey.group)
        let certificate = try CVCertificateBody(
            authorityReference: issuer.holderReference,
            publicKey: try CVPublicKey(
                algorithm: algorithm, point: keyPair.publicKey, includingDomainParameters: false),
            holderReference: holderReference, chat: chat, effectiveDate: effectiveDate,
            expirationDate: expirationDate, extensions: extensions
        ).signed(by: issuer.keyPair.privateKey, algorithm: algorithm)
        return IssuedCertificate(certificate: certificate, keyPair: keyPair)
    }
}
