import EAC
import EIDCrypto

/// A CVCA rollover (BSI TR-03110-3, 2.5; docs/protocol.md, "CVCA link certificates"): a new CVCA key, and the link
/// certificate that carries it, signed with the old CVCA's key. A card (or client) that trusts
/// the old CVCA verifies the link certificate with the old key and from then on trusts the new one.
public struct CVCALink: Sendable {
    /// The new CVCA with its private key; its `certificate` is the self-signed one.
    public let successor: TestCertificateAuthority
    /// The link certificate: CAR = the old CVCA, CHR = the new one, the new key with its domain
    /// parameters, role CVCA, signed by the old CVCA.
    public let link: CVCertificate
}

extension TestCertificateAuthority {
    /// A new CVCA `holderReference` with a fresh key on this CVCA's curve, valid from
    /// `effectiveDate` to `expirationDate`, and the link certificate to it from this CVCA.
    public func link(
        to holderReference: String, effectiveDate: CalendarDate, expirationDate: CalendarDate
    ) throws -> CVCALink {
        guard let parameters = domainParameters else {
            throw TestPKIError.missingDomainParameters(holderReference: self.holderReference)
        }
        let successor = try TestCertificateAuthority.generate(
            holderReference: holderReference, curve: try parameters.curve(), algorithm: algorithm,
            effectiveDate: effectiveDate, expirationDate: expirationDate)
        var body = successor.certificate.body
        body.authorityReference = self.holderReference
        let link = try body.signed(by: keyPair.privateKey, algorithm: algorithm)
        return CVCALink(successor: successor, link: link)
    }
}
