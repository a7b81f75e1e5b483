import COpenSSL

/// The self-signed certificate a TLS peer of the remote IFD (a phone as card reader, TR-03112-6) shows, made
/// as AusweisApp makes its own: X.509 v1 without extensions, subject = issuer = CN and a random
/// serialNumber attribute, a random serial, valid from 1970 to 9999, signed with SHA-256. The peer pins it
/// (by the SHA-256 of its DER) instead of checking it against a CA. PEM in and out.
extension X509Certificate {
    /// A self-signed certificate for `key` named CN=`commonName`.
    public static func selfSigned(key: X509PrivateKey, commonName: String) throws -> X509Certificate {
        guard let cert = X509_new() else { throw CryptoError.openSSL(function: "X509_new") }
        let made = X509Certificate(owning: cert)
        let serial = try SecureRandom.bytes(8).reduce(0) { ($0 << 8) | Int($1) } & Int(Int64.max >> 1)
        let serialNumber = String(try SecureRandom.bytes(8).reduce(UInt64(0)) { ($0 << 8) | UInt64($1) })
        let name = X509_get_subject_name(cert)
        let ok =
            ASN1_INTEGER_set(X509_get_serialNumber(cert), max(serial, 1)) == 1
            // RFC 5280 4.1.2.5: UTCTime up to 2049, GeneralizedTime after (ASN1_TIME_set_string_X509).
            && ASN1_TIME_set_string_X509(X509_getm_notBefore(cert), "19700101000000Z") == 1
            && ASN1_TIME_set_string_X509(X509_getm_notAfter(cert), "99991231235959Z") == 1
            && X509_set_pubkey(cert, key.handle) == 1
            && addEntry(name, "CN", MBSTRING_UTF8, commonName)
            && addEntry(name, "serialNumber", MBSTRING_ASC, serialNumber)
            && X509_set_issuer_name(cert, name) == 1
            && X509_sign(cert, key.handle, EVP_sha256()) > 0
        guard ok else {
            ERR_clear_error()
            throw CryptoError.openSSL(function: "X509_sign")
        }
        return made
    }

    private static func addEntry(_ name: OpaquePointer?, _ field: String, _ type: Int32, _ value: String) -> Bool {
        let bytes = Array(value.utf8)
        return X509_NAME_add_entry_by_txt(name, field, type, bytes, Int32(bytes.count), -1, 0) == 1
    }

    /// The first certificate in PEM text; anything else throws `X509Error.malformedCertificate`.
    public convenience init(pem: [UInt8]) throws {
        guard let cert = PEMBuffer.read(pem, { PEM_read_bio_X509($0, nil, nil, nil) }) else {
            ERR_clear_error()
            throw X509Error.malformedCertificate
        }
        self.init(owning: cert)
    }

    /// The PEM text ("-----BEGIN CERTIFICATE-----" …).
    public var pem: [UInt8] { PEMBuffer.write { PEM_write_bio_X509($0, handle) } ?? [] }

    /// Whether `key` is the private key of this certificate's public key.
    public func isCertified(_ key: X509PrivateKey) -> Bool {
        defer { ERR_clear_error() }
        return X509_check_private_key(handle, key.handle) == 1
    }
}
