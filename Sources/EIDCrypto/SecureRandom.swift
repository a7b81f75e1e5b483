import COpenSSL

/// Random bytes from OpenSSL's DRBG (RAND_bytes), for nonces and challenges.
public enum SecureRandom {
    public static func bytes(_ count: Int) throws -> [UInt8] {
        guard count > 0 else { return [] }
        var out = [UInt8](repeating: 0, count: count)
        let ok = out.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32($0.count)) }
        guard ok == 1 else { throw CryptoError.openSSL(function: "RAND_bytes") }
        return out
    }
}
