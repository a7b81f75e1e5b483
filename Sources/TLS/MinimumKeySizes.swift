/// The smallest keys accepted from a server, in bits: for the key of its certificate and for its ephemeral
/// (EC)DH key (BSI TR-02102-2, table 13; AusweisApp's `minKeySizes`).
public struct MinimumKeySizes: Sendable, Equatable {
    public var rsa: Int
    public var dsa: Int
    public var dh: Int
    public var ec: Int

    /// RSA, DSA and DH at least 3000 bits, elliptic curves at least 250 bits.
    public static let tr02102 = MinimumKeySizes(rsa: 3000, dsa: 3000, dh: 3000, ec: 250)
}
