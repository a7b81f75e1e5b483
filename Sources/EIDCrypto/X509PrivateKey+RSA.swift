import COpenSSL

/// RSA keys and PEM files: the key of eid's own TLS certificate towards a phone as card reader (the remote
/// IFD: AusweisApp makes RSA 3072 for it), kept as an unencrypted PKCS#8 PEM file that only its owner reads.
extension X509PrivateKey {
    /// A fresh RSA key of `bits` bits (OpenSSL's default public exponent, 65537).
    public convenience init(generatingRSABits bits: Int) throws {
        let context = EVP_PKEY_CTX_new_from_name(nil, "RSA", nil)
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard let context, EVP_PKEY_keygen_init(context) == 1,
            EVP_PKEY_CTX_set_rsa_keygen_bits(context, Int32(bits)) == 1,
            EVP_PKEY_generate(context, &key) == 1, let key
        else {
            ERR_clear_error()
            throw CryptoError.openSSL(function: "EVP_PKEY_generate")
        }
        self.init(owning: key)
    }

    /// A key from PEM text (PKCS#8 or a traditional RSA/EC key, unencrypted); an encrypted or broken one
    /// throws `X509Error.malformedPrivateKey` (no passphrase is ever asked for).
    public convenience init(pem: [UInt8]) throws {
        let key = PEMBuffer.read(pem) { bio in PEM_read_bio_PrivateKey(bio, nil, noPassphrase, nil) }
        guard let key else {
            ERR_clear_error()
            throw X509Error.malformedPrivateKey
        }
        self.init(owning: key)
    }

    /// The PEM text (PKCS#8, unencrypted): secret, for a file of mode 0600; zero it after use (`Cleanse.zero`).
    public func pem() throws -> [UInt8] {
        guard let text = PEMBuffer.write({ PEM_write_bio_PKCS8PrivateKey($0, handle, nil, nil, 0, nil, nil) }) else {
            ERR_clear_error()
            throw CryptoError.openSSL(function: "PEM_write_bio_PKCS8PrivateKey")
        }
        return text
    }

    /// The key's size in bits (RSA: the modulus).
    public var bits: Int { Int(EVP_PKEY_get_bits(handle)) }

    /// Whether this is an RSA key.
    public var isRSA: Bool { EVP_PKEY_is_a(handle, "RSA") == 1 }
}

/// The PEM passphrase callback that gives none: an encrypted key fails instead of prompting on the terminal.
private func noPassphrase(
    _: UnsafeMutablePointer<CChar>?, _: Int32, _: Int32, _: UnsafeMutableRawPointer?
) -> Int32 { 0 }

/// PEM text in and out of OpenSSL through a memory BIO, whose buffer is zeroed before it is freed (a key's
/// PEM is secret).
enum PEMBuffer {
    static func read(_ text: [UInt8], _ body: (OpaquePointer) -> OpaquePointer?) -> OpaquePointer? {
        text.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            guard buffer.count <= Int(Int32.max), let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count))
            else { return nil }
            defer { BIO_free(bio) }
            return body(bio)
        }
    }

    static func write(_ body: (OpaquePointer) -> Int32) -> [UInt8]? {
        guard let bio = BIO_new(BIO_s_mem()) else { return nil }
        defer { BIO_free(bio) }
        guard body(bio) == 1 else { return nil }
        var data: UnsafeMutablePointer<CChar>?
        let length = withUnsafeMutablePointer(to: &data) { BIO_ctrl(bio, BIO_CTRL_INFO, 0, $0) }
        guard length > 0, let data else { return nil }
        let text = data.withMemoryRebound(to: UInt8.self, capacity: length) {
            Array(UnsafeBufferPointer(start: $0, count: length))
        }
        OPENSSL_cleanse(data, length)
        return text
    }
}
