/// Why an ECDSA key or signature could not be used (BSI TR-03111, 4.2.1; TR-03110-3, A.6.2).
/// A signature that is well-formed but does not verify is not an error: `ECDSA.verify` is false.
public enum ECDSAError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A plain signature must be r || s with each half the byte length of the group order.
    case invalidSignatureLength(expected: Int, found: Int)
    /// Explicit domain parameters that are not those of a supported standardized curve.
    case unknownDomainParameters

    public var description: String {
        switch self {
        case .invalidSignatureLength(let expected, let found):
            return "an ECDSA signature of \(found) bytes is not plain r || s of \(expected) bytes"
        case .unknownDomainParameters:
            return "the explicit elliptic curve domain parameters are not those of a supported curve"
        }
    }
}
