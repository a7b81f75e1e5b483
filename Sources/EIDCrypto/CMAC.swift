import COpenSSL

/// AES-CMAC (NIST SP 800-38B, RFC 4493) through OpenSSL's EVP_MAC "CMAC". Secure messaging
/// and the PACE/CA authentication tokens use its first 8 bytes (BSI TR-03110-3, F.2 / A.2.4).
public enum CMAC {
    /// The full 16-byte AES-CMAC of `message` under a 16, 24 or 32-byte key.
    public static func aes(key: [UInt8], message: [UInt8]) throws -> [UInt8] {
        let cipherName: String
        switch key.count {
        case 16: cipherName = "AES-128-CBC"
        case 24: cipherName = "AES-192-CBC"
        case 32: cipherName = "AES-256-CBC"
        default: throw CryptoError.invalidKeyLength(key.count)
        }
        guard let mac = EVP_MAC_fetch(nil, "CMAC", nil) else { throw CryptoError.openSSL(function: "EVP_MAC_fetch") }
        defer { EVP_MAC_free(mac) }
        guard let ctx = EVP_MAC_CTX_new(mac) else { throw CryptoError.openSSL(function: "EVP_MAC_CTX_new") }
        defer { EVP_MAC_CTX_free(ctx) }
        let initOK = key.withUnsafeBufferPointer { k in
            cipherName.withCString { eid_cmac_init(ctx, $0, k.baseAddress, k.count) }
        }
        guard initOK == 1 else { throw CryptoError.openSSL(function: "EVP_MAC_init") }
        let updateOK = message.withUnsafeBufferPointer { EVP_MAC_update(ctx, $0.baseAddress, $0.count) }
        guard updateOK == 1 else { throw CryptoError.openSSL(function: "EVP_MAC_update") }
        var out = [UInt8](repeating: 0, count: 16)
        var length = 0
        let finalOK = out.withUnsafeMutableBufferPointer { EVP_MAC_final(ctx, $0.baseAddress, &length, $0.count) }
        guard finalOK == 1, length == 16 else { throw CryptoError.openSSL(function: "EVP_MAC_final") }
        return out
    }
}
