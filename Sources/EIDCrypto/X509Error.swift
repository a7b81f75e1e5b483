/// What goes wrong with X.509 certificates, keys and CMS signed data (passive authentication).
public enum X509Error: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bytes are not one DER X.509 certificate.
    case malformedCertificate
    /// The bytes are not a PKCS#8 private key OpenSSL can read.
    case malformedPrivateKey
    /// The bytes are not CMS SignedData, a signature does not verify, or the signer's
    /// certificate does not chain to the trusted CSCA at the given time.
    case signatureNotVerified
    /// CMS signing failed.
    case signingFailed

    public var description: String {
        switch self {
        case .malformedCertificate: return "not a DER X.509 certificate"
        case .malformedPrivateKey: return "not a PKCS#8 private key"
        case .signatureNotVerified:
            return "the CMS signature does not verify, or its signer does not chain to the trusted CSCA"
        case .signingFailed: return "CMS signing failed"
        }
    }
}
