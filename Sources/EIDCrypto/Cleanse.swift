import COpenSSL

/// Overwrites secret bytes with zeros through OpenSSL's OPENSSL_cleanse, which the optimiser
/// cannot drop: for key material, nonces, shared secrets and padded plaintext once they are used.
public enum Cleanse {
    /// Zeroes `bytes` in place; the array keeps its length.
    public static func zero(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { raw in
            if let base = raw.baseAddress { OPENSSL_cleanse(base, raw.count) }
        }
    }
}
