import EIDCrypto

/// A verified chain of CV certificates (BSI TR-03110-3, 2.5): a trust anchor (a CVCA certificate
/// the verifier already trusts), then CVCA link certificates (CVCA(old) → CVCA(new)), a DV
/// certificate and usually a terminal certificate, each signed with the key of the one before.
///
/// Checks: each signature under the issuer's key with the issuer key's hash; domain parameters
/// inherited from the latest CVCA; roles (CVCA issues CVCA links and DVs, a DV issues
/// terminals, of its terminal type); and, from the last CVCA on, the validity dates against
/// `date` (older link certificates may have expired, as AusweisApp's pre-verification does).
///
/// A certificate whose CHAT grants more than its issuer's is not refused: the card does not
/// refuse such a chain either (TR-03110-3; OpenPACE and AusweisApp do not check it). What the
/// chain grants is `effectiveCHAT`, the AND of its CHATs, which the card ANDs with PACE's CHAT.
public struct CVCertificateChain: Equatable, Sendable {
    /// The chain from the trust anchor to the target certificate.
    public let certificates: [CVCertificate]

    /// Builds the chain that ends at `target` from `pool` (link, DV certificates, in any order)
    /// up to one of `trustAnchors`, and verifies it on `date`.
    public init(
        target: CVCertificate, pool: [CVCertificate], trustAnchors: [CVCertificate], date: CalendarDate
    ) throws {
        var path = [target]
        while true {
            let current = path[0]
            if let anchor = trustAnchors.first(where: {
                $0.body.holderReference == current.body.authorityReference && $0 != current
            }) {
                path.insert(anchor, at: 0)
                break
            }
            if current.body.isSelfSigned, trustAnchors.contains(current) { break }
            guard let issuer = pool.first(where: { $0.body.holderReference == current.body.authorityReference }) else {
                throw CVCertificateChainError.unknownAuthority(
                    car: current.body.authorityReference, of: current.body.holderReference)
            }
            guard !path.contains(issuer) else { throw CVCertificateChainError.loop(chr: issuer.body.holderReference) }
            path.insert(issuer, at: 0)
        }
        try self.init(verifying: path, date: date)
    }

    /// Verifies an ordered chain whose first certificate is trusted as it is.
    public init(verifying chain: [CVCertificate], date: CalendarDate) throws {
        guard let anchor = chain.first else { throw CVCertificateChainError.unknownAuthority(car: "", of: "") }
        guard anchor.role == .cvca, let anchorParameters = anchor.body.publicKey.domainParameters else {
            throw CVCertificateChainError.missingDomainParameters(chr: anchor.body.holderReference)
        }
        var parameters = anchorParameters
        var issuer = anchor
        var issuerKey = try CVCertificateChain.key(of: anchor, inheriting: parameters)
        for certificate in chain.dropFirst() {
            let chr = certificate.body.holderReference
            let signed: Bool
            do {
                signed = try certificate.isSigned(by: issuerKey, algorithm: issuer.body.publicKey.algorithm)
            } catch let e as CVCertificateError {
                throw CVCertificateChainError.invalidCertificate(chr: chr, e)
            }
            guard signed else { throw CVCertificateChainError.invalidSignature(chr: chr) }
            try CVCertificateChain.checkRole(certificate, issuer: issuer)
            if certificate.role == .cvca {
                guard let own = certificate.body.publicKey.domainParameters else {
                    throw CVCertificateChainError.missingDomainParameters(chr: chr)
                }
                parameters = own
            }
            issuerKey = try CVCertificateChain.key(of: certificate, inheriting: parameters)
            issuer = certificate
        }
        let lastCVCA = chain.lastIndex { $0.role == .cvca } ?? 0
        for certificate in chain[lastCVCA...] {
            let body = certificate.body
            guard body.effectiveDate <= date else {
                throw CVCertificateChainError.notYetValid(chr: body.holderReference, from: body.effectiveDate)
            }
            guard date <= body.expirationDate else {
                throw CVCertificateChainError.expired(chr: body.holderReference, on: body.expirationDate)
            }
        }
        certificates = chain
        domainParameters = parameters
    }

    /// The domain parameters of the chain's latest CVCA, which its DV and terminal keys use.
    public let domainParameters: ECDomainParameters

    /// The trust anchor, the first certificate.
    public var anchor: CVCertificate { certificates[0] }

    /// The target, the last certificate.
    public var target: CVCertificate { certificates[certificates.count - 1] }

    /// The target's public key on the inherited group.
    public func targetKey() throws -> ECPoint {
        try CVCertificateChain.key(of: target, inheriting: domainParameters)
    }

    /// The rights the whole chain grants (the card's view: the AND of the CHATs of the latest
    /// CVCA, the DV and the terminal, where they are of the terminal's type), with the target's role.
    public var effectiveCHAT: CHAT {
        let lastCVCA = certificates.lastIndex { $0.role == .cvca } ?? 0
        var chat = target.body.chat
        for certificate in certificates[lastCVCA...] {
            chat = chat.intersection(certificate.body.chat) ?? chat
        }
        return chat
    }

    private static func key(of certificate: CVCertificate, inheriting parameters: ECDomainParameters) throws
        -> ECPoint
    {
        do { return try certificate.body.publicKey.point(inheriting: parameters) } catch let e as CVCertificateError {
            throw CVCertificateChainError.invalidCertificate(chr: certificate.body.holderReference, e)
        }
    }

    private static func checkRole(_ certificate: CVCertificate, issuer: CVCertificate) throws {
        let chr = certificate.body.holderReference
        let role = certificate.role
        let allowed: Bool
        switch issuer.role {
        case .cvca: allowed = role == .cvca || role.isDocumentVerifier
        case .dvOfficialDomestic, .dvNonOfficialForeign: allowed = role == .terminal
        case .terminal: allowed = false
        }
        guard allowed else { throw CVCertificateChainError.wrongRole(chr: chr, role: role, issuerRole: issuer.role) }
        if role == .terminal, certificate.body.chat.terminalType != issuer.body.chat.terminalType {
            throw CVCertificateChainError.terminalTypeMismatch(chr: chr)
        }
    }
}
