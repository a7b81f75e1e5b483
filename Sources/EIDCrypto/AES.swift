import COpenSSL

/// AES (FIPS 197) in the two modes the eID protocols use, through OpenSSL EVP: CBC without
/// padding (callers pad with ISO/IEC 9797-1 method 2 themselves, BSI TR-03110-3 F.2 /
/// ICAO 9303-11 9.8.6.1) and one ECB block (the secure messaging IV, E(KSenc, SSC)).
/// Keys are 16, 24 or 32 bytes.
public enum AES {
    public static let blockSize = 16

    /// AES-CBC encryption of whole blocks with the given 16-byte IV.
    public static func encryptCBC(key: [UInt8], iv: [UInt8], data: [UInt8]) throws -> [UInt8] {
        try run(mode: .cbc, encrypt: true, key: key, iv: iv, data: data)
    }

    /// AES-CBC decryption of whole blocks with the given 16-byte IV.
    public static func decryptCBC(key: [UInt8], iv: [UInt8], data: [UInt8]) throws -> [UInt8] {
        try run(mode: .cbc, encrypt: false, key: key, iv: iv, data: data)
    }

    /// Encrypts exactly one 16-byte block (AES-ECB).
    public static func encryptBlock(key: [UInt8], block: [UInt8]) throws -> [UInt8] {
        guard block.count == blockSize else { throw CryptoError.invalidDataLength(block.count) }
        return try run(mode: .ecb, encrypt: true, key: key, iv: [], data: block)
    }

    /// Decrypts exactly one 16-byte block (AES-ECB).
    public static func decryptBlock(key: [UInt8], block: [UInt8]) throws -> [UInt8] {
        guard block.count == blockSize else { throw CryptoError.invalidDataLength(block.count) }
        return try run(mode: .ecb, encrypt: false, key: key, iv: [], data: block)
    }

    private enum Mode { case cbc, ecb }

    private static func cipher(mode: Mode, keyLength: Int) throws -> OpaquePointer {
        let c: OpaquePointer?
        switch (mode, keyLength) {
        case (.cbc, 16): c = EVP_aes_128_cbc()
        case (.cbc, 24): c = EVP_aes_192_cbc()
        case (.cbc, 32): c = EVP_aes_256_cbc()
        case (.ecb, 16): c = EVP_aes_128_ecb()
        case (.ecb, 24): c = EVP_aes_192_ecb()
        case (.ecb, 32): c = EVP_aes_256_ecb()
        default: throw CryptoError.invalidKeyLength(keyLength)
        }
        guard let c else { throw CryptoError.openSSL(function: "EVP_aes_*") }
        return c
    }

    private static func run(mode: Mode, encrypt: Bool, key: [UInt8], iv: [UInt8], data: [UInt8]) throws -> [UInt8] {
        let cipher = try cipher(mode: mode, keyLength: key.count)
        guard data.count % blockSize == 0 else { throw CryptoError.invalidDataLength(data.count) }
        if mode == .cbc { guard iv.count == blockSize else { throw CryptoError.invalidDataLength(iv.count) } }
        guard !data.isEmpty else { return [] }
        guard let ctx = EVP_CIPHER_CTX_new() else { throw CryptoError.openSSL(function: "EVP_CIPHER_CTX_new") }
        defer { EVP_CIPHER_CTX_free(ctx) }
        let initOK = key.withUnsafeBufferPointer { k in
            iv.withUnsafeBufferPointer { v in
                EVP_CipherInit_ex2(ctx, cipher, k.baseAddress, mode == .cbc ? v.baseAddress : nil, encrypt ? 1 : 0, nil)
            }
        }
        guard initOK == 1 else { throw CryptoError.openSSL(function: "EVP_CipherInit_ex2") }
        guard EVP_CIPHER_CTX_set_padding(ctx, 0) == 1 else {
            throw CryptoError.openSSL(function: "EVP_CIPHER_CTX_set_padding")
        }
        var out = [UInt8](repeating: 0, count: data.count + blockSize)
        var written: Int32 = 0
        var final: Int32 = 0
        let ok = out.withUnsafeMutableBufferPointer { o in
            data.withUnsafeBufferPointer { d in
                guard EVP_CipherUpdate(ctx, o.baseAddress, &written, d.baseAddress, Int32(d.count)) == 1 else {
                    return false
                }
                return EVP_CipherFinal_ex(ctx, o.baseAddress! + Int(written), &final) == 1
            }
        }
        // When decrypting, `out` holds plaintext (a nonce, a PIN): only the returned copy survives.
        defer { Cleanse.zero(&out) }
        guard ok else { throw CryptoError.openSSL(function: "EVP_CipherUpdate/Final") }
        return Array(out.prefix(Int(written + final)))
    }
}
