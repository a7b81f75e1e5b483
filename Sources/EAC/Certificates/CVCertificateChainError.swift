/// Why a chain of CV certificates is not accepted (TR-03110-3, 2.5 and C; docs/protocol.md, "CVCA link
/// certificates"). Each case names the certificate (by its CHR) that failed the check.
public enum CVCertificateChainError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No trust anchor and no certificate in the pool has the CHR this CAR names.
    case unknownAuthority(car: String, of: String)
    /// The signature does not verify under the issuer's key.
    case invalidSignature(chr: String)
    /// The certificate is expired on the validation date.
    case expired(chr: String, on: CalendarDate)
    /// The certificate is not yet valid on the validation date.
    case notYetValid(chr: String, from: CalendarDate)
    /// The holder's role may not be issued by the issuer's role (CVCA → CVCA or DV → terminal).
    case wrongRole(chr: String, role: CertificateRole, issuerRole: CertificateRole)
    /// DV and terminal CHATs are of different terminal types.
    case terminalTypeMismatch(chr: String)
    /// A CVCA certificate (trust anchor or link) without explicit domain parameters.
    case missingDomainParameters(chr: String)
    /// A certificate could not be used: its key or signature is malformed.
    case invalidCertificate(chr: String, CVCertificateError)
    /// The chain loops (a CAR leads back to a certificate already in the chain).
    case loop(chr: String)

    public var description: String {
        switch self {
        case .unknownAuthority(let car, let chr): return "no trusted certificate \(car) issued \(chr)"
        case .invalidSignature(let chr): return "the signature of certificate \(chr) is not valid"
        case .expired(let chr, let date): return "certificate \(chr) expired on \(date)"
        case .notYetValid(let chr, let date): return "certificate \(chr) is not valid before \(date)"
        case .wrongRole(let chr, let role, let issuerRole):
            return "certificate \(chr) has role \(role), which a \(issuerRole) may not issue"
        case .terminalTypeMismatch(let chr): return "certificate \(chr) is for another terminal type than its issuer"
        case .missingDomainParameters(let chr): return "CVCA certificate \(chr) carries no domain parameters"
        case .invalidCertificate(let chr, let e): return "certificate \(chr) cannot be used: \(e)"
        case .loop(let chr): return "the certificate chain loops at \(chr)"
        }
    }
}
