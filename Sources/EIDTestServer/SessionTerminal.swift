import EAC
import EIDCrypto
import TestPKI

/// What one session presents in EAC1 and signs in EAC2: the certificates (link certificates,
/// then DV, then AT, as encoded), the certificate description, the AT key and its algorithm, the authenticated
/// auxiliary data. Normally the server PKI's; the certificate faults issue their own here.
struct SessionTerminal: Sendable {
    let certificates: [[UInt8]]
    /// What EAC2InputType carries besides the key (a client ignores these AT certificates):
    /// another eService's for `eac2_other_at`, an expired one for `eac2_expired_at`.
    let eac2Certificates: [[UInt8]]
    let description: [UInt8]
    let terminal: IssuedCertificate
    let algorithm: TAAlgorithm
    /// The rights the server asks for and reads: the AT's within the DV's (the AT's alone for
    /// `chat_beyond_dv`).
    let grantableRights: Set<AccessRight>
    /// The C3 staging of a CVCA link chain, when the server has one (`CVCAChainStaging`).
    let cvcaChain: CVCAChainStaging?

    init(pki: ServerPKI, faults: ServerFaults, date: CalendarDate, cvcaChain: CVCAChainStaging? = nil)
        throws(ServerPKIError)
    {
        do {
            try self.init(issuing: pki, faults: faults, date: date, cvcaChain: cvcaChain)
        } catch let error as ServerPKIError {
            throw error
        } catch {
            throw .cannotIssue("\(error)")
        }
    }

    private init(
        issuing pki: ServerPKI, faults: ServerFaults, date: CalendarDate, cvcaChain: CVCAChainStaging?
    ) throws {
        var dv = pki.documentVerifier
        var terminal = pki.terminal
        var description = pki.description
        var sentDescription: CertificateDescription?
        var extra: [IssuedCertificate] = []
        var links: [CVCertificate] = []
        let rights = pki.terminal.certificate.body.chat.accessRights
        let chr = pki.terminal.holderReference
        var parameters = pki.cvca.body.publicKey.domainParameters
        func issue(_ description: CertificateDescription, effective: CalendarDate = date, days: Int = 30) throws
            -> IssuedCertificate
        {
            try dv.issueTerminal(
                rights: rights, description: description, holderReference: chr, effectiveDate: effective,
                expirationDate: try effective.adding(days: days), domainParameters: parameters)
        }
        if faults.contains(.cvcaLink) {
            guard let rollover = pki.rollover else { throw ServerPKIError.cannotIssue("no CVCA key for a link") }
            dv = try rollover.successor.issueDocumentVerifier(
                rights: dv.certificate.body.chat.accessRights, effectiveDate: date)
            parameters = rollover.successor.domainParameters
            links = [rollover.link]
            terminal = try issue(description)
        }
        if let cvcaChain {
            let authority = try cvcaChain.authority()
            dv = try authority.issueDocumentVerifier(rights: dv.certificate.body.chat.accessRights, effectiveDate: date)
            parameters = authority.domainParameters
            links = try cvcaChain.eac1Links()
            terminal = try issue(description)
        }
        let origin = description.subjectURL
        let hashes = description.commCertificates ?? []
        if faults.contains(.sopViolation) {
            description = try ServerPKI.description(
                subjectURL: "https://sop-violation.invalid", commCertificates: hashes)
            terminal = try issue(description)
        }
        if faults.contains(.noSubjectURL) {
            description = try ServerPKI.description(subjectURL: nil, commCertificates: hashes)
            terminal = try issue(description)
        }
        if faults.contains(.sopViolationPort), let origin {
            description = try ServerPKI.description(subjectURL: Self.nextPort(of: origin), commCertificates: hashes)
            terminal = try issue(description)
        }
        if faults.contains(.tlsNotInDescription) {
            description = try ServerPKI.description(
                subjectURL: description.subjectURL ?? origin ?? "",
                commCertificates: [SessionConfiguration.foreignCertificateHash])
            terminal = try issue(description)
        }
        if faults.contains(.expiredAT) {
            terminal = try issue(description, effective: try date.adding(days: -31), days: 30)
        }
        if faults.contains(.chatBeyondDV) {
            guard let authority = pki.authority else { throw ServerPKIError.cannotIssue("no CVCA key for a new DV") }
            // The DV lacks DG9 (place of birth), which the AT grants and the server reads.
            let narrower = rights.subtracting(ServerFault.rightsBeyondDV)
            dv = try authority.issueDocumentVerifier(rights: narrower, effectiveDate: date)
            terminal = try issue(description)
        }
        if faults.contains(.twoAT) {
            extra.append(
                try dv.issueTerminal(
                    rights: rights, description: description, holderReference: "DEEIDTESTAT00002",
                    effectiveDate: date, expirationDate: try date.adding(days: 30), domainParameters: parameters))
        }
        if faults.contains(.descriptionHashMismatch) {
            sentDescription = try CertificateDescription(
                issuerName: description.issuerName, subjectName: description.subjectName + " (changed)",
                subjectURL: description.subjectURL, termsOfUsage: description.termsOfUsage,
                commCertificates: description.commCertificates)
        }
        var eac2: [IssuedCertificate] = []
        if faults.contains(.eac2OtherAT) {
            let other = try ServerPKI.description(
                subjectURL: "https://other-eservice.invalid", commCertificates: hashes)
            eac2.append(
                try dv.issueTerminal(
                    rights: rights, description: other, holderReference: "DEEIDTESTAT00009", effectiveDate: date,
                    expirationDate: try date.adding(days: 30), domainParameters: parameters))
        }
        if faults.contains(.eac2ExpiredAT) {
            eac2.append(try issue(description, effective: try date.adding(days: -31), days: 30))
        }
        eac2Certificates = try eac2.map { try $0.certificate.encoded }
        // C3's order (TR-03124-2): AT, DV, then the link certificates newest first.
        var dvSent = dv.certificate
        if faults.contains(.dvForged) {
            // The DV's signature with its last byte changed: no longer the CVCA's signature.
            var signature = dvSent.signature
            signature[signature.count - 1] ^= 0x01
            dvSent = CVCertificate(body: dvSent.body, signature: signature)
        }
        let sent =
            cvcaChain == nil
            ? links + [dvSent, terminal.certificate] + extra.map(\.certificate)
            : [terminal.certificate, dvSent] + extra.map(\.certificate) + links
        certificates = try (faults.contains(.certificatesReversed) ? sent.reversed() : sent).map { try $0.encoded }
        self.cvcaChain = cvcaChain
        self.description = (sentDescription ?? description).encoded
        self.terminal = terminal
        algorithm = terminal.certificate.body.publicKey.algorithm
        let atRights = terminal.certificate.body.chat.accessRights
        // A server whose AT grants more than its DV asks for, and reads, what its AT certificate
        // says, as a real eID server configured by its AT's CHAT does; the card grants only the
        // AND of the chain's CHATs and refuses the rest (6982).
        grantableRights =
            faults.contains(.chatBeyondDV) ? atRights : atRights.intersection(dv.certificate.body.chat.accessRights)
    }

    /// `origin` ("https://host:port") with the port after its own (443 when it names none): the
    /// subjectURL of `sop_violation_port`.
    static func nextPort(of origin: String) -> String {
        let authority = origin.split(separator: "/", omittingEmptySubsequences: true).dropFirst().first ?? ""
        let parts = authority.split(separator: ":")
        let port = parts.count == 2 ? Int(parts[1]) ?? 443 : 443
        let host = parts.first.map(String.init) ?? ""
        return "https://\(host):\(port + 1)"
    }
}
