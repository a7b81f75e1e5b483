import COpenSSL

/// An X.509 certificate (RFC 5280) held by OpenSSL, as far as passive authentication needs it:
/// decode and encode DER, and issue the certificates of a test PKI (a CSCA and its document
/// signer, ICAO 9303-12) with SHA-256 over EC keys. Immutable; freed in deinit.
public final class X509Certificate: Equatable, @unchecked Sendable {
    // @unchecked: the X509 object is never mutated after init, and OpenSSL's read functions on
    // it are thread-safe.
    let handle: OpaquePointer

    /// Decodes exactly one DER certificate; anything else throws `X509Error.malformedCertificate`.
    public init(der: [UInt8]) throws {
        guard let cert = der.withUnsafeBufferPointer({ eid_x509_from_der($0.baseAddress, $0.count) }) else {
            ERR_clear_error()
            throw X509Error.malformedCertificate
        }
        handle = cert
    }

    init(owning handle: OpaquePointer) { self.handle = handle }

    deinit { X509_free(handle) }

    /// Issues a certificate for `subjectKey` named C=`country`, CN=`commonName`, signed by
    /// `issuer` with `issuerKey` (both nil: self-signed with `subjectKey`), valid for `days` days
    /// from `notBefore` (seconds since 1970). A CA certificate gets basicConstraints CA:TRUE and
    /// keyUsage keyCertSign/cRLSign, any other keyUsage digitalSignature.
    public static func issue(
        subjectKey: X509PrivateKey, country: String, commonName: String, issuer: X509Certificate?,
        issuerKey: X509PrivateKey?, serial: Int, notBefore: Int64, days: Int, isCA: Bool
    ) throws -> X509Certificate {
        let signingKey = issuerKey ?? subjectKey
        guard
            let cert = eid_x509_issue(
                subjectKey.handle, country, commonName, issuer?.handle, signingKey.handle, serial,
                notBefore, Int32(days), isCA ? 1 : 0)
        else {
            ERR_clear_error()
            throw CryptoError.openSSL(function: "X509_sign")
        }
        return X509Certificate(owning: cert)
    }

    /// The DER encoding.
    public var der: [UInt8] {
        var out: UnsafeMutablePointer<UInt8>? = nil
        let n = eid_x509_to_der(handle, &out)
        guard n > 0, let out else { return [] }
        defer { eid_openssl_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: n))
    }

    public static func == (lhs: X509Certificate, rhs: X509Certificate) -> Bool { lhs.der == rhs.der }
}

/// A private key for X.509, CMS and TLS (OpenSSL EVP_PKEY): EC, or RSA (`X509PrivateKey+RSA`); PKCS#8.
public final class X509PrivateKey: @unchecked Sendable {
    // @unchecked: the EVP_PKEY is never mutated after init; OpenSSL signs with it thread-safely.
    let handle: OpaquePointer

    /// A fresh key on `curve`.
    public init(generatingOn curve: ECCurve) throws {
        guard let key = eid_ec_pkey_generate(try ECGroup(curve).openSSLName) else {
            ERR_clear_error()
            throw CryptoError.openSSL(function: "EVP_PKEY_Q_keygen")
        }
        handle = key
    }

    init(owning handle: OpaquePointer) { self.handle = handle }

    /// A key from its PKCS#8 DER encoding.
    public init(pkcs8 der: [UInt8]) throws {
        guard let key = der.withUnsafeBufferPointer({ eid_pkey_from_pkcs8($0.baseAddress, $0.count) }) else {
            ERR_clear_error()
            throw X509Error.malformedPrivateKey
        }
        handle = key
    }

    deinit { EVP_PKEY_free(handle) }

    /// The PKCS#8 DER encoding (secret: for test material only).
    public func pkcs8() throws -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>? = nil
        let n = eid_pkey_to_pkcs8(handle, &out)
        guard n > 0, let out else { throw CryptoError.openSSL(function: "i2d_PKCS8_PRIV_KEY_INFO") }
        defer {
            OPENSSL_cleanse(out, n)
            eid_openssl_free(out)
        }
        return Array(UnsafeBufferPointer(start: out, count: n))
    }
}
