import CCurl
import SmartCard

/// The TLS-2 pre-shared key of a TcToken (RFC 4279): identity = the SessionIdentifier's bytes, key = the
/// hex-decoded PSK. The key lives in a `LockedBuffer` of its own (locked into RAM where the system allows it),
/// never in an Array, and is wiped by `wipe()` or when the last reference goes; no description of it ever
/// shows the key.
public final class PreSharedKey: CustomStringConvertible {
    public enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        case emptyKey
        case keyNotHex
        case keyTooLong(maximumBytes: Int)
        case emptyIdentity
        case identityTooLong(maximumBytes: Int)
        case identityContainsNUL

        public var description: String {
            switch self {
            case .emptyKey: return "the PSK is empty"
            case .keyNotHex: return "the PSK is not an even number of hex digits"
            case .keyTooLong(let maximum): return "the PSK is longer than \(maximum) bytes"
            case .emptyIdentity: return "the SessionIdentifier is empty"
            case .identityTooLong(let maximum): return "the SessionIdentifier is longer than \(maximum) bytes"
            case .identityContainsNUL: return "the SessionIdentifier contains a NUL byte"
            }
        }
    }

    /// OpenSSL's limits (PSK_MAX_PSK_LEN, PSK_MAX_IDENTITY_LEN).
    public static let maximumKeyBytes = 512
    public static let maximumIdentityBytes = 128

    public let identity: [UInt8]
    private let storage: LockedBuffer
    private var key: UnsafeMutableRawBufferPointer { UnsafeMutableRawBufferPointer(storage.bytes) }
    private var wiped = false

    /// - Parameters:
    ///   - identity: the TcToken's SessionIdentifier, as given.
    ///   - hexKey: the TcToken's PSK (hexBinary, either case).
    public init(identity: String, hexKey: some StringProtocol) throws(TLSError) {
        let identityBytes = Array(identity.utf8)
        guard !identityBytes.isEmpty else { throw .invalidPreSharedKey(.emptyIdentity) }
        guard identityBytes.count <= Self.maximumIdentityBytes else {
            throw .invalidPreSharedKey(.identityTooLong(maximumBytes: Self.maximumIdentityBytes))
        }
        guard !identityBytes.contains(0) else { throw .invalidPreSharedKey(.identityContainsNUL) }
        let digits = hexKey.utf8
        guard !digits.isEmpty else { throw .invalidPreSharedKey(.emptyKey) }
        guard digits.count % 2 == 0 else { throw .invalidPreSharedKey(.keyNotHex) }
        guard digits.count / 2 <= Self.maximumKeyBytes else {
            throw .invalidPreSharedKey(.keyTooLong(maximumBytes: Self.maximumKeyBytes))
        }
        let locked = LockedBuffer(count: digits.count / 2)
        let buffer = locked.bytes
        var index = 0
        var high: UInt8? = nil
        for digit in digits {
            guard let nibble = UInt8(hexDigit: digit) else {
                // The LockedBuffer is zeroed as it goes.
                throw .invalidPreSharedKey(.keyNotHex)
            }
            if let h = high {
                buffer[index] = h << 4 | nibble
                index += 1
                high = nil
            } else {
                high = nibble
            }
        }
        self.identity = identityBytes
        self.storage = locked
    }

    /// - Parameters:
    ///   - identity: the TcToken's SessionIdentifier, as given.
    ///   - key: the key's bytes (already decoded from the TcToken's hex); the caller wipes its copy.
    public init(identity: String, key: [UInt8]) throws(TLSError) {
        let identityBytes = Array(identity.utf8)
        guard !identityBytes.isEmpty else { throw .invalidPreSharedKey(.emptyIdentity) }
        guard identityBytes.count <= Self.maximumIdentityBytes else {
            throw .invalidPreSharedKey(.identityTooLong(maximumBytes: Self.maximumIdentityBytes))
        }
        guard !identityBytes.contains(0) else { throw .invalidPreSharedKey(.identityContainsNUL) }
        guard !key.isEmpty else { throw .invalidPreSharedKey(.emptyKey) }
        guard key.count <= Self.maximumKeyBytes else {
            throw .invalidPreSharedKey(.keyTooLong(maximumBytes: Self.maximumKeyBytes))
        }
        let locked = LockedBuffer(count: key.count)
        for (i, byte) in key.enumerated() { locked.bytes[i] = byte }
        self.identity = identityBytes
        self.storage = locked
    }

    /// Whether the key's memory is locked into RAM (`LockedBuffer.isLocked`).
    public var isMemoryLocked: Bool { storage.isLocked }

    deinit {
        wipe()
    }

    /// Overwrites the key with zeros; a handshake after this fails with `preSharedKeyRejected`.
    public func wipe() {
        storage.wipe()
        wiped = true
    }

    public var description: String { "PreSharedKey(identity: \(identity.count) bytes, key: \(key.count) bytes)" }

    /// Copies identity (NUL-terminated) and key into OpenSSL's buffers; the key's length, or 0 (abort the
    /// handshake) when it does not fit or was wiped.
    func copy(
        identityInto identityBuffer: UnsafeMutablePointer<CChar>, capacity identityCapacity: Int,
        keyInto keyBuffer: UnsafeMutablePointer<UInt8>, capacity keyCapacity: Int
    ) -> Int {
        guard !wiped, identity.count + 1 <= identityCapacity, key.count <= keyCapacity else { return 0 }
        for (offset, byte) in identity.enumerated() { identityBuffer[offset] = CChar(bitPattern: byte) }
        identityBuffer[identity.count] = 0
        UnsafeMutableRawPointer(keyBuffer).copyMemory(from: key.baseAddress!, byteCount: key.count)
        return key.count
    }
}
