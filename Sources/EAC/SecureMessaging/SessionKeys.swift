import SmartCard

/// The secure messaging keys KSenc and KSmac that PACE (and later Chip Authentication) agree
/// on (BSI TR-03110-3, A.2.3 / F). Each key lives in a `Secret`, a heap buffer that is zeroed
/// by `wipe()` (secure messaging calls it when the session ends) and when the last reference
/// goes away. Not printable; equality takes constant time.
public final class SessionKeys: Equatable, Sendable, CustomStringConvertible, CustomReflectable {
    private let encryptionKey: Secret
    private let macKey: Secret

    /// Takes the keys and zeroes the caller's arrays.
    public init(consumingEncryption encryption: inout [UInt8], mac: inout [UInt8]) {
        encryptionKey = Secret(consuming: &encryption)
        macKey = Secret(consuming: &mac)
    }

    /// Copies the keys (for tests and published traces; the caller's arrays stay as they are).
    public convenience init(encryption: [UInt8], mac: [UInt8]) {
        var e = encryption
        var m = mac
        self.init(consumingEncryption: &e, mac: &m)
    }

    /// A copy of KSenc, for a caller that zeroes it after use (`Secret.zero`).
    public var encryption: [UInt8] { encryptionKey.copyBytes() }
    /// A copy of KSmac, for a caller that zeroes it after use (`Secret.zero`).
    public var mac: [UInt8] { macKey.copyBytes() }

    /// Lends KSenc to `body`; the lent copy is zeroed afterwards.
    public func withEncryptionKey<R>(_ body: ([UInt8]) throws -> R) rethrows -> R {
        try encryptionKey.withBytes(body)
    }

    /// Lends KSmac to `body`; the lent copy is zeroed afterwards.
    public func withMACKey<R>(_ body: ([UInt8]) throws -> R) rethrows -> R { try macKey.withBytes(body) }

    /// Whether the keys were wiped (both empty).
    public var isWiped: Bool { encryptionKey.count == 0 && macKey.count == 0 }

    /// Zeroes both keys; every holder of this object sees empty keys afterwards, and secure
    /// messaging with them fails instead of running with zero keys.
    public func wipe() {
        encryptionKey.wipe()
        macKey.wipe()
    }

    public static func == (lhs: SessionKeys, rhs: SessionKeys) -> Bool {
        lhs.encryptionKey.matches(rhs.encryptionKey) && lhs.macKey.matches(rhs.macKey)
    }

    public var description: String { "SessionKeys(\(encryptionKey.count * 8)-bit, redacted)" }
    public var customMirror: Mirror { Mirror(self, children: []) }
}
