import EAC
import TestPKI

/// A CVCA link chain as TR-03124-2 module C3 stages it (`eid-testserver serve --cvca-generation S
/// --eac1-links-from B`): the DV and AT are issued under generation `newestGeneration` (s) of the test CVCA
/// series (`TestCVCAGenerations`); EAC1 carries, after AT and DV, the link certificates from generation
/// `eac1LinksFrom` (B) up to s, newest first (B = 1: the full chain; B = s: none); when the client's EAC1
/// output names a CAR of an older generation r (the card's trust point, which the chain did not reach),
/// EAC2 carries the links from r up to B that EAC1 left out, newest first.
public struct CVCAChainStaging: Equatable, Sendable {
    /// s: the generation the DV certificate's CAR names.
    public let newestGeneration: Int
    /// B: the oldest generation EAC1's link certificates start at.
    public let eac1LinksFrom: Int

    /// nil unless 1 ≤ `eac1LinksFrom` ≤ `newestGeneration` ≤ `TestCVCAGenerations.maximum`.
    public init?(newestGeneration: Int, eac1LinksFrom: Int = 1) {
        guard (1...TestCVCAGenerations.maximum).contains(newestGeneration),
            (1...newestGeneration).contains(eac1LinksFrom)
        else { return nil }
        self.newestGeneration = newestGeneration
        self.eac1LinksFrom = eac1LinksFrom
    }

    /// The CVCA that issues the DV.
    func authority() throws -> TestCertificateAuthority { try TestCVCAGenerations.authority(newestGeneration) }

    /// EAC1's link certificates: to s, s − 1, …, B + 1 (the link to generation k comes from k − 1).
    func eac1Links() throws -> [CVCertificate] { try links(from: eac1LinksFrom) }

    /// EAC2's link certificates for the CARs the client named: from the oldest generation named up to B,
    /// newest first; none when no CAR names an older generation than B.
    func eac2Links(certificationAuthorityReferences cars: [String]) throws -> [CVCertificate] {
        guard let oldest = cars.compactMap(TestCVCAGenerations.generation(of:)).min(), oldest < eac1LinksFrom else {
            return []
        }
        return try (oldest + 1...eac1LinksFrom).reversed().map(TestCVCAGenerations.link(to:))
    }

    private func links(from generation: Int) throws -> [CVCertificate] {
        guard generation < newestGeneration else { return [] }
        return try (generation + 1...newestGeneration).reversed().map(TestCVCAGenerations.link(to:))
    }
}
