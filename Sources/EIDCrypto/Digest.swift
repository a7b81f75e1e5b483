import COpenSSL

/// The SHA family (FIPS 180-4) through OpenSSL EVP, as used by the KDF, the MRZ password,
/// Terminal Authentication and certificate descriptions.
public enum Digest: String, CaseIterable, Sendable {
    case sha1, sha224, sha256, sha384, sha512

    /// The digest length in bytes.
    public var outputSize: Int {
        switch self {
        case .sha1: return 20
        case .sha224: return 28
        case .sha256: return 32
        case .sha384: return 48
        case .sha512: return 64
        }
    }

    /// The digest of `data`.
    public func hash(_ data: [UInt8]) throws -> [UInt8] {
        let md: OpaquePointer?
        switch self {
        case .sha1: md = EVP_sha1()
        case .sha224: md = EVP_sha224()
        case .sha256: md = EVP_sha256()
        case .sha384: md = EVP_sha384()
        case .sha512: md = EVP_sha512()
        }
        guard let md else { throw CryptoError.openSSL(function: "EVP_sha*") }
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = data.withUnsafeBufferPointer { d in
            out.withUnsafeMutableBufferPointer { EVP_Digest(d.baseAddress, d.count, $0.baseAddress, &length, md, nil) }
        }
        // The digest may be key material (the KDF): only the returned copy survives.
        defer { Cleanse.zero(&out) }
        guard ok == 1, Int(length) == outputSize else { throw CryptoError.openSSL(function: "EVP_Digest") }
        return Array(out.prefix(Int(length)))
    }
}
