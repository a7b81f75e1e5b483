/// What can go wrong when eid-testserver's front end starts or makes its TLS credentials.
public enum TestServerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// OpenSSL refused the TLS certificate or key (or its settings).
    case tlsConfiguration
    /// Making the TLS key or certificate failed in OpenSSL.
    case credentialGeneration
    /// The server could not listen on this host and port (in use, or not an address of this machine).
    case cannotListen(host: String, port: Int)
    /// The origin is not an https URL with a host and port.
    case invalidOrigin(String)

    public var description: String {
        switch self {
        case .tlsConfiguration: "the TLS certificate or key was refused by OpenSSL; make them again with `pki`"
        case .credentialGeneration: "OpenSSL could not make the TLS key or certificate"
        case .cannotListen(let host, let port):
            "cannot listen on \(host):\(port); choose another port with --port"
        case .invalidOrigin(let origin): "\(origin) is not an https://HOST:PORT origin"
        }
    }
}
