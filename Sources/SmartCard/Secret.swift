#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A PIN, CAN or PUK while eid holds it. The digits live in a `LockedBuffer` (pages of their
/// own, locked into RAM where the system allows it) that is zeroed when the secret is wiped or
/// released; the type is deliberately not `Codable`,
/// not `CustomStringConvertible` and not `Equatable`, so a secret cannot be printed, logged or
/// compared by accident. Compare with `matches(_:)`, which takes constant time.
public final class Secret {
    private let buffer: LockedBuffer
    private var storage: UnsafeMutableBufferPointer<UInt8> { buffer.bytes }
    private var length: Int

    /// Takes the bytes and zeroes the caller's array.
    public init(consuming bytes: inout [UInt8]) {
        buffer = LockedBuffer(count: max(bytes.count, 1))
        length = bytes.count
        for i in 0..<bytes.count { buffer.bytes[i] = bytes[i] }
        Secret.zero(&bytes)
    }

    /// Copies the bytes and zeroes the caller's buffer (a JSON value decoded in place, the
    /// TcToken's PSK), so that the secret never passes through an array or a string.
    public init(consuming bytes: UnsafeMutableBufferPointer<UInt8>) {
        buffer = LockedBuffer(count: max(bytes.count, 1))
        length = bytes.count
        for i in 0..<bytes.count { buffer.bytes[i] = bytes[i] }
        if let base = bytes.baseAddress { explicit_bzero(base, bytes.count) }
    }

    /// Copies the UTF-8 of a string. Swift strings cannot be wiped: only for values that are no
    /// secret of a person (a literal in a benchmark or a test); input is read with
    /// `init(consuming:)`.
    public convenience init(_ string: String) {
        var bytes = Array(string.utf8)
        self.init(consuming: &bytes)
    }

    deinit {
        wipe()
    }

    /// Whether the storage is locked into RAM (`LockedBuffer.isLocked`).
    public var isMemoryLocked: Bool { buffer.isLocked }

    /// The storage's address, for tests that check the page's lock in /proc/self/smaps.
    public var storageAddress: UnsafeRawPointer { UnsafeRawPointer(buffer.baseAddress) }

    /// The number of characters (bytes) held.
    public var count: Int { length }

    /// Whether the secret is exactly `counts` ASCII digits long (one of them).
    public func isDigits(count counts: Int...) -> Bool {
        guard counts.contains(length) else { return false }
        return (0..<length).allSatisfy { storage[$0] >= 0x30 && storage[$0] <= 0x39 }
    }

    /// A copy of the bytes in storage of its own, for a caller that zeroes it after use
    /// (`Secret.zero`). Unlike an array lent by `withBytes`, it shares no buffer with anything.
    public func copyBytes() -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: length) { buffer, count in
            for i in 0..<length { buffer[i] = storage[i] }
            count = length
        }
    }

    /// Lends the bytes to `body`. Do not let them escape: the lent array is zeroed afterwards,
    /// but a copy that escaped shares its buffer and would keep the digits.
    public func withBytes<R>(_ body: ([UInt8]) throws -> R) rethrows -> R {
        var copy = Array(UnsafeBufferPointer(rebasing: storage[0..<length]))
        defer { Secret.zero(&copy) }
        return try body(copy)
    }

    /// Constant-time comparison (for equal lengths) with another secret.
    public func matches(_ other: Secret) -> Bool {
        guard length == other.length else { return false }
        var diff: UInt8 = 0
        for i in 0..<length { diff |= storage[i] ^ other.storage[i] }
        return diff == 0
    }

    /// Overwrites the digits with zeros; the secret is empty afterwards.
    public func wipe() {
        buffer.wipe()
        length = 0
    }

    /// Zeroes an array in place (through a call the optimiser cannot drop).
    public static func zero(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { raw in
            if let base = raw.baseAddress { explicit_bzero(base, raw.count) }
        }
    }
}

/// A secret is handed from the thread that reads it to the thread that uses it, once; it is
/// not shared for concurrent use.
extension Secret: @unchecked Sendable {}
