import COpenSSL

/// A point on an elliptic curve group other than the point at infinity (OpenSSL EC_POINT).
/// Points can be secret (the mapping's H, a shared point): every EC_POINT is freed with
/// EC_POINT_clear_free. Immutable; every operation returns a new point. Decoding checks that the point lies on the
/// curve, so an `ECPoint` received from a peer is always a valid group element
/// (BSI TR-03110-3, A.2.2.3 public key validation; all supported curves have cofactor 1).
public final class ECPoint: Equatable, @unchecked Sendable {
    public let group: ECGroup
    let handle: OpaquePointer

    init(group: ECGroup, owning handle: OpaquePointer) {
        self.group = group
        self.handle = handle
    }

    /// Decodes the uncompressed encoding 04 || X || Y (BSI TR-03110-3, A.2.2.3; SEC 1 2.3.4).
    /// Compressed and hybrid encodings, wrong lengths, the point at infinity and points that
    /// do not satisfy the curve equation are rejected with `CryptoError.invalidPoint`.
    public init(group: ECGroup, encoded bytes: [UInt8]) throws {
        guard bytes.count == 1 + 2 * group.fieldSize, bytes.first == 0x04 else { throw CryptoError.invalidPoint }
        guard let point = EC_POINT_new(group.handle) else { throw CryptoError.openSSL(function: "EC_POINT_new") }
        let ctx = try BigNumberContext()
        let decoded = bytes.withUnsafeBufferPointer {
            EC_POINT_oct2point(group.handle, point, $0.baseAddress, $0.count, ctx.handle)
        }
        guard decoded == 1,
            EC_POINT_is_at_infinity(group.handle, point) == 0,
            EC_POINT_is_on_curve(group.handle, point, ctx.handle) == 1
        else {
            EC_POINT_clear_free(point)
            ERR_clear_error()
            throw CryptoError.invalidPoint
        }
        self.group = group
        self.handle = point
    }

    /// The point from its affine coordinates (big-endian, at most `fieldSize` bytes each).
    public convenience init(group: ECGroup, x: [UInt8], y: [UInt8]) throws {
        let size = group.fieldSize
        guard x.count <= size, y.count <= size else { throw CryptoError.invalidPoint }
        let pad = { (v: [UInt8]) in [UInt8](repeating: 0, count: size - v.count) + v }
        try self.init(group: group, encoded: [0x04] + pad(x) + pad(y))
    }

    deinit { EC_POINT_clear_free(handle) }

    /// The uncompressed encoding 04 || X || Y, each coordinate `group.fieldSize` bytes.
    public var encoded: [UInt8] {
        let length = 1 + 2 * group.fieldSize
        var out = [UInt8](repeating: 0, count: length)
        let n = out.withUnsafeMutableBufferPointer {
            EC_POINT_point2oct(group.handle, handle, POINT_CONVERSION_UNCOMPRESSED, $0.baseAddress, length, nil)
        }
        // A finite point on a known curve always encodes to exactly `length` bytes.
        return n == length ? out : []
    }

    /// The affine x-coordinate, `group.fieldSize` bytes (e.g. ID_PICC, or a shared secret K).
    /// The full encoding it is cut from is wiped: for a shared point it holds the secret.
    public var x: [UInt8] {
        var all = encoded
        defer { Cleanse.zero(&all) }
        return Array(all.dropFirst().prefix(group.fieldSize))
    }

    /// The affine y-coordinate, `group.fieldSize` bytes.
    public var y: [UInt8] {
        var all = encoded
        defer { Cleanse.zero(&all) }
        return Array(all.dropFirst(1 + group.fieldSize))
    }

    /// self + other. Throws `pointAtInfinity` when the sum is the point at infinity (other = -self).
    public func adding(_ other: ECPoint) throws -> ECPoint {
        guard other.group == group else { throw CryptoError.groupMismatch }
        guard let r = EC_POINT_new(group.handle) else { throw CryptoError.openSSL(function: "EC_POINT_new") }
        let ctx = try BigNumberContext()
        guard EC_POINT_add(group.handle, r, handle, other.handle, ctx.handle) == 1 else {
            EC_POINT_clear_free(r)
            throw CryptoError.openSSL(function: "EC_POINT_add")
        }
        return try finite(r)
    }

    /// k · self for a big-endian scalar k, reduced modulo the group order; a scalar that is 0
    /// modulo the order is rejected with `invalidScalar`.
    public func multiplied(by scalar: [UInt8]) throws -> ECPoint {
        let k = try BigNumber(bytes: scalar)
        let ctx = try BigNumberContext()
        guard let n = EC_GROUP_get0_order(group.handle) else {
            throw CryptoError.openSSL(function: "EC_GROUP_get0_order")
        }
        guard BN_nnmod(k.handle, k.handle, n, ctx.handle) == 1 else { throw CryptoError.openSSL(function: "BN_nnmod") }
        guard !k.isZero else { throw CryptoError.invalidScalar }
        return try multiplied(by: k, context: ctx)
    }

    /// k · self for a scalar already known to be in 1 ..< n.
    func multiplied(by k: BigNumber, context ctx: BigNumberContext) throws -> ECPoint {
        guard let r = EC_POINT_new(group.handle) else { throw CryptoError.openSSL(function: "EC_POINT_new") }
        guard EC_POINT_mul(group.handle, r, nil, handle, k.handle, ctx.handle) == 1 else {
            EC_POINT_clear_free(r)
            throw CryptoError.openSSL(function: "EC_POINT_mul")
        }
        return try finite(r)
    }

    private func finite(_ r: OpaquePointer) throws -> ECPoint {
        guard EC_POINT_is_at_infinity(group.handle, r) == 0 else {
            EC_POINT_clear_free(r)
            throw CryptoError.pointAtInfinity
        }
        return ECPoint(group: group, owning: r)
    }

    public static func == (lhs: ECPoint, rhs: ECPoint) -> Bool {
        guard lhs.group == rhs.group else { return false }
        return EC_POINT_cmp(lhs.group.handle, lhs.handle, rhs.handle, nil) == 0
    }
}
