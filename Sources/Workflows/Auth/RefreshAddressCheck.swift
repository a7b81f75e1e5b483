import EAC
import EIDCrypto
import Online

/// StateCheckRefreshAddress (docs/protocol.md, "Refresh address check"): from the TcToken's RefreshAddress to the
/// refresh URL, as AusweisApp determines it.
///
/// 1. The address must be https.
/// 2. The RefreshAddress itself of the same origin as the description's subjectURL, or a Location
///    that an address of that origin answered: a HEAD request, only for the TLS certificate, which
///    must hash into CommCertificates; this is the refresh URL.
/// 3. Otherwise `GET` it, redirects not followed: the answer must be 302, 303 or 307 with a
///    Location, and its TLS certificate must hash into CommCertificates; the Location is the next
///    address (step 1). An address of the service's origin reached by a redirect is asked too: its
///    redirect names the refresh URL (TR-03124-2 EID_CLIENT_A4_05, as AusweisApp has it).
///
/// Without a certificate description (the workflow ended before EAC1) the tcTokenURL stands in
/// for the subjectURL (TR-03124-1 2.4.5.1) and there are no CommCertificates to check against.
public struct RefreshAddressCheck {
    /// The description's subjectURL (or the tcTokenURL).
    public var subjectURL: String
    /// The description's CommCertificates and the digest that hashes into them (the DV key's);
    /// nil when there is no description.
    public var commCertificates: (hashes: [[UInt8]], digest: Digest)?
    /// At most this many redirects.
    public var maximumRedirects = 10

    public init(subjectURL: String, commCertificates: (hashes: [[UInt8]], digest: Digest)?) {
        self.subjectURL = subjectURL
        self.commCertificates = commCertificates
    }

    /// The refresh URL (without the result parameters) for `refreshAddress`.
    public func resolve(_ refreshAddress: String, client: RefreshAddressClient) throws(RefreshAddressError) -> String {
        var address = refreshAddress
        var redirects = 0
        var sameOrigin = WebOrigin.isSameOrigin(address, subjectURL)
        while true {
            guard WebOrigin(url: address)?.isHTTPS == true else { throw .notHTTPS }
            let visit: RefreshAddressVisit
            do { visit = try client.visit(address, headOnly: sameOrigin) } catch {
                // After EAC1 the client's connections are bound to CommCertificates: refused in the handshake.
                if error == .certificateNotInDescription { throw .certificateNotInDescription }
                throw .hopFailed(error)
            }
            try check(visit.serverCertificate)
            if sameOrigin { return address }
            guard [302, 303, 307].contains(visit.status) else { throw .unexpectedStatus(visit.status) }
            guard let location = visit.location else { throw .missingLocation }
            redirects += 1
            guard redirects <= maximumRedirects else { throw .tooManyRedirects(limit: maximumRedirects) }
            // The service's origin redirecting names the refresh URL, whatever its origin.
            sameOrigin = WebOrigin.isSameOrigin(address, subjectURL)
            address = location
        }
    }

    private func check(_ certificate: [UInt8]) throws(RefreshAddressError) {
        guard let comm = commCertificates else { return }
        guard let hash = try? comm.digest.hash(certificate), comm.hashes.contains(hash) else {
            throw .certificateNotInDescription
        }
    }
}

extension RefreshAddressCheck {
    /// The check for a service whose EAC1 was refused (AusweisApp checks the refresh address
    /// against the certificate description it received even then): the description's subjectURL
    /// and CommCertificates, hashed with the digest of the AT certificate's key (of the first
    /// certificate that parses, when no AT does). Nil when EAC1 carries no readable description
    /// with a subjectURL; the tcTokenURL then stands in, as before EAC1.
    public init?(refusedEAC1 input: EAC1InputType) {
        guard let encoded = input.certificateDescription,
            let description = try? CertificateDescription(encoded: encoded),
            let subjectURL = description.subjectURL
        else { return nil }
        let certificates = input.certificates.compactMap { try? CVCertificate(encoded: $0) }
        guard let keyed = certificates.first(where: { $0.role == .terminal }) ?? certificates.first else {
            return nil
        }
        self.init(
            subjectURL: subjectURL,
            commCertificates: (description.commCertificates ?? [], keyed.body.publicKey.algorithm.digest))
    }
}
