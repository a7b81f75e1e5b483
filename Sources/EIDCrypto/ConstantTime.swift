import COpenSSL

/// Comparison whose running time does not depend on where two secrets differ (OpenSSL
/// CRYPTO_memcmp): for MACs and authentication tokens.
public enum ConstantTime {
    /// Whether `a` and `b` are equal. Lengths are not secret: different lengths are unequal.
    public static func equals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        return a.withUnsafeBytes { x in b.withUnsafeBytes { y in CRYPTO_memcmp(x.baseAddress, y.baseAddress, x.count) }
        }
            == 0
    }
}
