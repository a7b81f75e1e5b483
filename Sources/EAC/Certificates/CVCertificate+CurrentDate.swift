extension CVCertificate {
    /// Whether the certificate is valid on `date`: effective date ≤ date ≤ expiration date
    /// (both inclusive).
    public func isValid(on date: CalendarDate) -> Bool {
        body.effectiveDate <= date && date <= body.expirationDate
    }

    /// The card's current date after it has verified and imported this certificate, issued by a holder with
    /// `issuerRole` (TR-03110-3, 2.5; docs/protocol.md, "CVCA link certificates", which says where the rule
    /// comes from): the card has no clock, so it raises its date to the effective date of a CVCA, a DV or a
    /// domestic terminal certificate (one issued by an official domestic DV) when that date is later. A
    /// foreign terminal's date is not trusted.
    public func cardCurrentDate(after current: CalendarDate, issuerRole: CertificateRole) -> CalendarDate {
        let trusted: Bool
        switch role {
        case .cvca, .dvOfficialDomestic, .dvNonOfficialForeign: trusted = true
        case .terminal: trusted = issuerRole == .dvOfficialDomestic
        }
        return trusted ? max(current, body.effectiveDate) : current
    }
}
