import EAC

/// Why the test PKI cannot make what was asked for.
public enum TestPKIError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The private key given for a CVCA is not the key of its certificate.
    case keyDoesNotMatchCertificate(String)
    /// A DV certificate was asked for with a role that is not a DV role, or a terminal
    /// certificate under a certificate that is not a DV's.
    case wrongRole(CertificateRole)
    /// A validity that ends before it starts, or after 2099 (CV certificate dates end there).
    case invalidValidity(days: Int)
    /// A CVCA certificate without the domain parameters a link to a new CVCA key needs.
    case missingDomainParameters(holderReference: String)
    /// A generation of the test CVCA series (`TestCVCAGenerations`) that is not 1 to its maximum (or,
    /// for a link certificate, 2 to it).
    case invalidGeneration(Int)

    public var description: String {
        switch self {
        case .keyDoesNotMatchCertificate(let chr):
            return "the private key is not the key of the certificate \(chr); regenerate both with `make test-pki`"
        case .wrongRole(let role):
            return "a \(role) cannot be used here: DV certificates need a DV role and issue terminal certificates"
        case .invalidValidity(let days):
            return "a validity of \(days) days is not possible: use 0 or more days ending by 2099-12-31"
        case .missingDomainParameters(let chr):
            return "the CVCA certificate \(chr) carries no domain parameters, so no new CVCA key can be linked from it"
        case .invalidGeneration(let generation):
            return "there is no test CVCA generation \(generation): use 1 to \(TestCVCAGenerations.maximum)"
        }
    }
}
