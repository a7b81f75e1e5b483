/// The key derivation function of BSI TR-03110-3, A.2.3 (= ICAO 9303-11, 9.7.1):
/// keydata = H(secret || [nonce] || counter), counter a 32-bit big-endian integer;
/// SHA-1 truncated to 16 bytes for AES-128, SHA-256 truncated to 24/32 bytes for AES-192/256.
/// (3DES keys are not supported.)
public enum KDF {
    /// The counter values of TR-03110-3, A.2.3.
    public enum Counter: UInt32, Sendable {
        /// 1: the encryption key KSenc.
        case encryption = 1
        /// 2: the message authentication key KSmac.
        case mac = 2
        /// 3: the PACE password key K_pi.
        case password = 3
    }

    /// An AES key of `keyLength` (16, 24 or 32) bytes derived from `secret` and an optional
    /// nonce (Chip Authentication uses r_PICC as nonce).
    public static func derive(secret: [UInt8], nonce: [UInt8] = [], counter: Counter, keyLength: Int) throws
        -> [UInt8]
    {
        let digest: Digest
        switch keyLength {
        case 16: digest = .sha1
        case 24, 32: digest = .sha256
        default: throw CryptoError.invalidKeyLength(keyLength)
        }
        let c = counter.rawValue
        // secret || nonce || counter and its full digest are as secret as the key: wipe both.
        var input = secret + nonce + [UInt8(c >> 24), UInt8(c >> 16 & 0xFF), UInt8(c >> 8 & 0xFF), UInt8(c & 0xFF)]
        defer { Cleanse.zero(&input) }
        var keyData = try digest.hash(input)
        defer { Cleanse.zero(&keyData) }
        return Array(keyData.prefix(keyLength))
    }
}
