/// The TLS server certificates an `HTTPSession` still accepts once the service's certificate description is
/// known (TR-03124-1 after EAC1; AusweisApp's `CertificateChecker` on every later connection): from
/// `HTTPSession.bind(_:)` on, every handshake's leaf certificate (reconnects, new channels and resumed
/// sessions included) must be one `accepts` takes (its hash among the description's CommCertificates), else
/// the connection fails with `TLSError.certificateNotInDescription` before any request is sent on it.
public struct ServerCertificateBinding: Sendable {
    /// Whether the server certificate (DER) may be used.
    public let accepts: @Sendable (_ certificate: [UInt8]) -> Bool

    public init(accepts: @escaping @Sendable (_ certificate: [UInt8]) -> Bool) {
        self.accepts = accepts
    }
}
