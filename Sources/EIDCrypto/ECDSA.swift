import COpenSSL

/// ECDSA (BSI TR-03111, 4.2.1) through OpenSSL's EVP_DigestSign/EVP_DigestVerify, with signatures
/// in the plain format r || s that CV certificates and Terminal Authentication use (TR-03111,
/// 5.2.1; TR-03110-3, A.6.2.2): each half left-padded to the byte length of the group order.
/// The digest is that of the id-TA-ECDSA-SHA-* identifier (SHA-1 ... SHA-512).
public enum ECDSA {
    /// The plain signature length for `group`: twice the byte length of its order.
    public static func signatureLength(for group: ECGroup) -> Int { 2 * group.orderSize }

    /// Signs `message` (hashed here with `digest`) with `privateKey`; a fresh random nonce each
    /// time (OpenSSL's DRBG). Returns r || s.
    public static func sign(_ message: [UInt8], digest: Digest, privateKey: ECPrivateKey) throws -> [UInt8] {
        let group = privateKey.group
        let publicPoint = try privateKey.multiply(try group.generator())
        let key = try EVPKey(group: group, publicPoint: publicPoint.encoded, privateScalar: privateKey.scalar)
        guard let ctx = EVP_MD_CTX_new() else { throw CryptoError.openSSL(function: "EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(ctx) }
        guard EVP_DigestSignInit(ctx, nil, digest.evpMD, nil, key.handle) == 1 else {
            throw CryptoError.openSSL(function: "EVP_DigestSignInit")
        }
        var length = 0
        guard message.withUnsafeBufferPointer({ EVP_DigestSign(ctx, nil, &length, $0.baseAddress, $0.count) }) == 1
        else { throw CryptoError.openSSL(function: "EVP_DigestSign") }
        var der = [UInt8](repeating: 0, count: length)
        let signed = message.withUnsafeBufferPointer { m in
            der.withUnsafeMutableBufferPointer { EVP_DigestSign(ctx, $0.baseAddress, &length, m.baseAddress, m.count) }
        }
        guard signed == 1 else { throw CryptoError.openSSL(function: "EVP_DigestSign") }
        let half = group.orderSize
        var plain = [UInt8](repeating: 0, count: 2 * half)
        let converted = der.withUnsafeBufferPointer { d in
            plain.withUnsafeMutableBufferPointer { eid_ecdsa_der_to_plain(d.baseAddress, length, $0.baseAddress, half) }
        }
        guard converted == 1 else { throw CryptoError.openSSL(function: "d2i_ECDSA_SIG") }
        return plain
    }

    /// Whether `signature` (r || s) is a valid signature of `message` under `publicKey`.
    /// A signature of the wrong length throws `ECDSAError.invalidSignatureLength`; r or s out of
    /// range (zero, not below the order) simply does not verify.
    public static func verify(_ signature: [UInt8], of message: [UInt8], digest: Digest, publicKey: ECPoint) throws
        -> Bool
    {
        let group = publicKey.group
        let half = group.orderSize
        guard signature.count == 2 * half else {
            throw ECDSAError.invalidSignatureLength(expected: 2 * half, found: signature.count)
        }
        var derPointer: UnsafeMutablePointer<UInt8>? = nil
        let derLength = signature.withUnsafeBufferPointer { eid_ecdsa_plain_to_der($0.baseAddress, half, &derPointer) }
        guard derLength > 0, let derPointer else { throw CryptoError.openSSL(function: "i2d_ECDSA_SIG") }
        defer { eid_openssl_free(derPointer) }
        let key = try EVPKey(group: group, publicPoint: publicKey.encoded, privateScalar: nil)
        guard let ctx = EVP_MD_CTX_new() else { throw CryptoError.openSSL(function: "EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(ctx) }
        guard EVP_DigestVerifyInit(ctx, nil, digest.evpMD, nil, key.handle) == 1 else {
            throw CryptoError.openSSL(function: "EVP_DigestVerifyInit")
        }
        let result = message.withUnsafeBufferPointer {
            EVP_DigestVerify(ctx, derPointer, derLength, $0.baseAddress, $0.count)
        }
        ERR_clear_error()
        return result == 1
    }
}

/// An owned OpenSSL EVP_PKEY for one EC key; freed in deinit. Internal to the crypto layer.
final class EVPKey {
    let handle: OpaquePointer

    init(group: ECGroup, publicPoint: [UInt8], privateScalar: BigNumber?) throws {
        let key = publicPoint.withUnsafeBufferPointer {
            eid_ec_pkey_new(group.openSSLName, $0.baseAddress, $0.count, privateScalar?.handle)
        }
        guard let key else { throw CryptoError.openSSL(function: "EVP_PKEY_fromdata") }
        handle = key
    }

    deinit { EVP_PKEY_free(handle) }
}

extension Digest {
    var evpMD: OpaquePointer? {
        switch self {
        case .sha1: return EVP_sha1()
        case .sha224: return EVP_sha224()
        case .sha256: return EVP_sha256()
        case .sha384: return EVP_sha384()
        case .sha512: return EVP_sha512()
        }
    }
}
