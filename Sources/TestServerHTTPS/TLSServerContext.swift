import CTestServerTLS

/// eid-testserver's OpenSSL server context (SSL_CTX): its certificate and key, TLS 1.2 and 1.3,
/// the TLS 1.2 suites (ECDHE with AES-GCM for TLS-1, the RSA-PSK suites of TR-03124-1 for TLS-2),
/// a session cache and session tickets so that a client resumes TLS-1's session on the PAOS
/// connection, and the PSK server callback, which finds the key by the PSK identity (the
/// session identifier) in `keys`. Immutable after init; freed in deinit.
public final class TLSServerContext: @unchecked Sendable {
    // @unchecked: the SSL_CTX is configured once in init and only read afterwards (SSL_new and
    // its session cache, which OpenSSL guards with its own lock); `keys` guards itself.
    let handle: OpaquePointer
    /// The PSKs of the sessions that use the PSK channel (TLS-2, RSA-PSK).
    public let keys: PSKStore
    /// The certificate the next connection gets instead of this context's (`tls_changed_after_eac1`).
    public let nextConnection = NextConnectionCertificate()
    /// Who judges the clients' certificates (a phone as card reader), kept alive for OpenSSL's callback.
    let clientCertificates: (any ClientCertificateJudge)?

    /// TLS 1.2 suites, the server's preference first: AES-GCM with ECDHE (TLS-1; TR-03116-4),
    /// then RSA-PSK (TLS-2; TR-03124-1 §4.5: GCM preferred, RSA-PSK-AES256-CBC-SHA required).
    public static let cipherSuites = [
        "ECDHE-ECDSA-AES256-GCM-SHA384", "ECDHE-RSA-AES256-GCM-SHA384", "ECDHE-ECDSA-AES128-GCM-SHA256",
        "ECDHE-RSA-AES128-GCM-SHA256", "ECDHE-ECDSA-AES128-SHA256", "ECDHE-RSA-AES128-SHA256",
        "RSA-PSK-AES256-GCM-SHA384", "RSA-PSK-AES128-GCM-SHA256", "RSA-PSK-AES256-CBC-SHA384",
        "RSA-PSK-AES128-CBC-SHA256", "RSA-PSK-AES256-CBC-SHA",
    ]
    /// (EC)DHE groups, the server's preference first: the two that TR-03116-4 (table 5) requires, secp256r1
    /// and brainpoolP256r1 (brainpool in TLS 1.2 only with OpenSSL 3.0), then X25519. The larger curves are
    /// optional and left out on purpose, as a real eID server may: OpenSSL 3.0 computes P-384 and brainpool
    /// with generic bignum code, P-256 and X25519 with optimised code. In TLS 1.2 `SSL_OP_CIPHER_SERVER_PREFERENCE`
    /// picks P-256 from any client list that has it; in TLS 1.3 OpenSSL 3.0 takes the client's key share when
    /// its group is in this list, so a client whose key share is secp384r1 (eid's and AusweisApp's lists put
    /// the larger curves first) gets a HelloRetryRequest for P-256 instead of a P-384 handshake.
    public static let groups = ["P-256", "brainpoolP256r1", "X25519"]
    /// How long a TLS session (cache entry or ticket) may be resumed: 48 h (TR-03116-4).
    public static let sessionLifetime = 48 * 3600

    /// A context serving `certificatePEM` with `keyPEM` (PEM text); throws
    /// `TestServerError.tlsConfiguration` when OpenSSL refuses them.
    public convenience init(certificatePEM: String, keyPEM: String, keys: PSKStore = PSKStore()) throws(TestServerError)
    {
        guard
            let ctx = eid_tls_server_ctx_new(
                certificatePEM, keyPEM, Self.cipherSuites.joined(separator: ":"), Self.groups.joined(separator: ":"),
                Self.sessionLifetime)
        else {
            ERR_clear_error()
            throw .tlsConfiguration
        }
        self.init(handle: ctx, keys: keys, clientCertificates: nil)
        SSL_CTX_set_psk_server_callback(ctx, pskServerCallback)
    }

    /// Takes `handle` (freed in deinit); OpenSSL's callbacks find `keys` (ex data 0) and
    /// `clientCertificates` (ex data 1) through it, as they have no user-data argument.
    init(handle: OpaquePointer, keys: PSKStore, clientCertificates: (any ClientCertificateJudge)?) {
        self.handle = handle
        self.keys = keys
        self.clientCertificates = clientCertificates
        SSL_CTX_set_ex_data(handle, 0, Unmanaged.passUnretained(keys).toOpaque())
        if let clientCertificates {
            SSL_CTX_set_ex_data(handle, 1, Unmanaged.passUnretained(clientCertificates as AnyObject).toOpaque())
        }
    }

    deinit { SSL_CTX_free(handle) }
}

/// OpenSSL's TLS 1.2 PSK server callback: the key registered for `identity`, or 0 (handshake
/// refused) when there is none or it does not fit.
private func pskServerCallback(
    ssl: OpaquePointer?, identity: UnsafePointer<CChar>?, psk: UnsafeMutablePointer<UInt8>?, maxLength: UInt32
) -> UInt32 {
    guard let identity else { return 0 }
    return copyPSK(ssl: ssl, identity: String(cString: identity), into: psk, maxLength: maxLength)
}

/// Copies the key that the context's `PSKStore` (ex data 0) holds for `identity` into `psk`; its length, or 0
/// when there is none or it does not fit.
func copyPSK(ssl: OpaquePointer?, identity: String, into psk: UnsafeMutablePointer<UInt8>?, maxLength: UInt32)
    -> UInt32
{
    guard let ssl, let psk, let ctx = SSL_get_SSL_CTX(ssl), let store = SSL_CTX_get_ex_data(ctx, 0) else { return 0 }
    let keys = Unmanaged<PSKStore>.fromOpaque(store).takeUnretainedValue()
    guard var key = keys.key(for: identity), key.count <= Int(maxLength) else { return 0 }
    defer { for i in key.indices { key[i] = 0 } }
    key.withUnsafeBufferPointer { psk.update(from: $0.baseAddress!, count: $0.count) }
    return UInt32(key.count)
}
