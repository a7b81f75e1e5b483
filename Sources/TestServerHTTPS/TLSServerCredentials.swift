import CTestServerTLS

/// The TLS certificate and private key of eid-testserver, as PEM text: made fresh (`pki`) as a
/// self-signed RSA 3072 certificate (RSA for the RSA-PSK suites; ≥ 3000 bits as eID clients
/// demand) for the origin's host, localhost and 127.0.0.1. TEST ONLY.
public struct TLSServerCredentials: Sendable {
    public var certificatePEM: String
    /// The private key (PKCS#8 PEM, unencrypted): secret, for test servers only.
    public var keyPEM: String

    public init(certificatePEM: String, keyPEM: String) {
        self.certificatePEM = certificatePEM
        self.keyPEM = keyPEM
    }

    /// A fresh key and certificate for `host`, valid `days` days.
    public static func generate(host: String, days: Int = 365) throws(TestServerError) -> TLSServerCredentials {
        guard let key = eid_rsa_generate(3072) else {
            ERR_clear_error()
            throw .credentialGeneration
        }
        defer { EVP_PKEY_free(key) }
        var names = ["DNS:localhost", "IP:127.0.0.1"]
        let hostName = isIPAddress(host) ? "IP:\(host)" : "DNS:\(host)"
        if !names.contains(hostName) { names.insert(hostName, at: 0) }
        let serial = Int.random(in: 1...Int(Int32.max))
        guard let cert = eid_tls_self_signed(key, host, names.joined(separator: ","), serial, Int32(days)) else {
            ERR_clear_error()
            throw .credentialGeneration
        }
        defer { X509_free(cert) }
        var buffer = [CChar](repeating: 0, count: 16 * 1024)
        defer { for i in buffer.indices { buffer[i] = 0 } }
        guard eid_pem_of(cert, nil, &buffer, buffer.count) > 0 else { throw .credentialGeneration }
        let certificatePEM = String(cString: buffer)
        guard eid_pem_of(nil, key, &buffer, buffer.count) > 0 else { throw .credentialGeneration }
        return TLSServerCredentials(certificatePEM: certificatePEM, keyPEM: String(cString: buffer))
    }

    /// The DER of the certificate (what CommCertificates hashes), or nil when the PEM is broken.
    public var certificateDER: [UInt8]? {
        var out: UnsafeMutablePointer<UInt8>?
        let n = eid_pem_certificate_der(certificatePEM, &out)
        guard n > 0, let out else {
            ERR_clear_error()
            return nil
        }
        defer { eid_tls_openssl_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: n))
    }

    private static func isIPAddress(_ host: String) -> Bool {
        host.contains(":") || host.split(separator: ".").count == 4 && host.allSatisfy { $0.isNumber || $0 == "." }
    }
}
