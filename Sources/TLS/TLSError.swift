/// Why a TLS connection was refused. No case ever carries key material.
public enum TLSError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The server's certificate (or one in its chain) expired.
    case certificateExpired
    /// The server's certificate (or one in its chain) is not valid yet.
    case certificateNotYetValid
    /// A certificate's signature does not verify under its issuer's key.
    case certificateSignatureInvalid
    /// The server's certificate is not issued for the host that was asked for.
    case hostMismatch(host: String)
    /// A certificate of the server's chain issues another one without being a CA (no basicConstraints
    /// CA:TRUE, or a key usage without keyCertSign).
    case invalidCA
    /// The certificate was refused for another reason (OpenSSL's verification text).
    case certificateRejected(reason: String)
    /// After EAC1: the server's certificate is not one the certificate description lists (CommCertificates).
    case certificateNotInDescription
    /// The server sent no certificate.
    case noServerCertificate
    /// The key in the server's certificate is shorter than the minimum (algorithm as OpenSSL names it).
    case serverKeyTooSmall(algorithm: String, bits: Int, minimum: Int)
    /// The server's ephemeral (EC)DH key is shorter than the minimum.
    case ephemeralKeyTooSmall(algorithm: String, bits: Int, minimum: Int)
    /// TLS-2 without a pre-shared key must resume TLS-1's session, and the server started a new one.
    case sessionNotResumed
    /// The server refused the pre-shared key (a wrong key, or the session is unknown to it).
    case preSharedKeyRejected
    /// The pre-shared key from the TcToken cannot be used.
    case invalidPreSharedKey(PreSharedKey.Problem)
    /// The handshake failed (no common version or suite, an alert, a broken connection): OpenSSL's reason.
    case handshakeFailed(reason: String)

    public var description: String {
        switch self {
        case .certificateExpired:
            return "the server's TLS certificate has expired; the service must renew it"
        case .certificateNotYetValid:
            return "the server's TLS certificate is not valid yet; check this computer's clock"
        case .certificateSignatureInvalid:
            return "the server's TLS certificate has an invalid signature; do not trust this server"
        case .hostMismatch(let host):
            return "the server's TLS certificate is not issued for \(host); check the address"
        case .invalidCA:
            return "the server's TLS certificate chain has an issuer that is not a CA; do not trust this server"
        case .certificateRejected(let reason):
            return "the server's TLS certificate was refused (\(reason))"
        case .certificateNotInDescription:
            return "the server's TLS certificate is not listed in the service's certificate description "
                + "(CommCertificates); do not trust this connection"
        case .noServerCertificate:
            return "the server sent no TLS certificate"
        case .serverKeyTooSmall(let algorithm, let bits, let minimum):
            return "the server's \(algorithm) key has \(bits) bits, fewer than the \(minimum) required; "
                + "the service must use a stronger key"
        case .ephemeralKeyTooSmall(let algorithm, let bits, let minimum):
            return "the server's ephemeral \(algorithm) key has \(bits) bits, fewer than the \(minimum) required; "
                + "the service must use a stronger group"
        case .sessionNotResumed:
            return "the eID server did not resume the TLS session of the TcToken fetch; the service is misconfigured"
        case .preSharedKeyRejected:
            return "the eID server refused the pre-shared key of the TcToken; start the authentication again"
        case .invalidPreSharedKey(let problem):
            return "the TcToken's pre-shared key cannot be used: \(problem)"
        case .handshakeFailed(let reason):
            return "the TLS handshake failed (\(reason)); the server may not support the required TLS settings"
        }
    }
}
