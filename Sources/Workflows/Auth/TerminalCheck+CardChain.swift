import EAC

/// The chain for the card (TR-03124-2 module C3): the verified chain starts at a CVCA eid trusts, which need
/// not be the card's trust point. A card with an older trust point needs the CVCA link certificates from it
/// on; the eID server sends them in EAC1 or, once the EAC1 output named the card's CARs, in EAC2.
extension TerminalCheck {
    /// The verified chain, led back through CVCA link certificates (EAC1's, the built-in ones and
    /// `additionalLinks`, e.g. EAC2's; other certificates among them are ignored) as far as they go: each
    /// link carries the key of the oldest CVCA reached so far and is signed by the one before. The card,
    /// which verifies every certificate, gets those after its newest trust point
    /// (`TerminalAuthentication.certificatesToSend`); eid's own pre-verification stays the verified chain's.
    public func cardChain(additionalLinks: [CVCertificate] = []) -> [CVCertificate] {
        let certificates = chain.certificates
        let pool = linkCertificates + additionalLinks.filter { $0.role == .cvca && !$0.body.isSelfSigned }
        let anchor = chain.anchor
        var wanted = anchor.body.isSelfSigned ? anchor.body.holderReference : anchor.body.authorityReference
        var older: [CVCertificate] = []
        while older.count < Self.maximumLinks,
            let link = pool.first(where: {
                $0.body.holderReference == wanted && !older.contains($0) && !certificates.contains($0)
            })
        {
            older.insert(link, at: 0)
            wanted = link.body.authorityReference
        }
        guard !older.isEmpty else { return certificates }
        return older + (anchor.body.isSelfSigned ? Array(certificates.dropFirst()) : certificates)
    }

    /// Whether `cardChain` reaches one of the card's trust points `cars` (the CARs from PACE): when not, the
    /// EAC1 output names them, and the server sends the missing link certificates in EAC2.
    public func reachesCard(_ cars: [String], additionalLinks: [CVCertificate] = []) -> Bool {
        cardChain(additionalLinks: additionalLinks).contains {
            cars.contains($0.body.holderReference) || cars.contains($0.body.authorityReference)
        }
    }

    /// More link certificates than any CVCA's lifetime needs (the German eID PKI has had seven).
    static let maximumLinks = 32
}
