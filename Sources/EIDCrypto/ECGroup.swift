import COpenSSL

/// The elliptic curves of BSI TR-03110-3, appendix A.2.1.1 (standardized domain parameters,
/// table 4), by their standardized domain parameter id. Ids 0...2 are the RFC 5114 MODP groups
/// and are not curves.
public enum ECCurve: String, CaseIterable, Sendable {
    case secp192r1, brainpoolP192r1, secp224r1, brainpoolP224r1, secp256r1, brainpoolP256r1
    case brainpoolP320r1, secp384r1, brainpoolP384r1, brainpoolP512r1, secp521r1

    /// The TR-03110 standardized domain parameter id (8 ... 18).
    public var standardizedDomainParameterID: Int {
        switch self {
        case .secp192r1: return 8
        case .brainpoolP192r1: return 9
        case .secp224r1: return 10
        case .brainpoolP224r1: return 11
        case .secp256r1: return 12
        case .brainpoolP256r1: return 13
        case .brainpoolP320r1: return 14
        case .secp384r1: return 15
        case .brainpoolP384r1: return 16
        case .brainpoolP512r1: return 17
        case .secp521r1: return 18
        }
    }

    /// The curve for a TR-03110 standardized domain parameter id, or nil (DH groups, RFU ids).
    public init?(standardizedDomainParameterID id: Int) {
        guard let curve = ECCurve.allCases.first(where: { $0.standardizedDomainParameterID == id }) else {
            return nil
        }
        self = curve
    }

    var nid: Int32 {
        switch self {
        case .secp192r1: return NID_X9_62_prime192v1
        case .brainpoolP192r1: return NID_brainpoolP192r1
        case .secp224r1: return NID_secp224r1
        case .brainpoolP224r1: return NID_brainpoolP224r1
        case .secp256r1: return NID_X9_62_prime256v1
        case .brainpoolP256r1: return NID_brainpoolP256r1
        case .brainpoolP320r1: return NID_brainpoolP320r1
        case .secp384r1: return NID_secp384r1
        case .brainpoolP384r1: return NID_brainpoolP384r1
        case .brainpoolP512r1: return NID_brainpoolP512r1
        case .secp521r1: return NID_secp521r1
        }
    }
}

/// An elliptic curve group over a prime field (OpenSSL EC_GROUP) with its standard generator.
/// Immutable; the handle is freed in deinit.
public final class ECGroup: Equatable, @unchecked Sendable {
    let handle: OpaquePointer
    public let curve: ECCurve

    public init(_ curve: ECCurve) throws {
        guard let group = EC_GROUP_new_by_curve_name(curve.nid) else {
            throw CryptoError.openSSL(function: "EC_GROUP_new_by_curve_name")
        }
        handle = group
        self.curve = curve
    }

    /// The group of a TR-03110 standardized domain parameter id (TR-03110-3 A.2.1.1).
    public convenience init(standardizedDomainParameterID id: Int) throws {
        guard let curve = ECCurve(standardizedDomainParameterID: id) else {
            throw CryptoError.unsupportedDomainParameter(id)
        }
        try self.init(curve)
    }

    deinit { EC_GROUP_free(handle) }

    public static func == (lhs: ECGroup, rhs: ECGroup) -> Bool { lhs.curve == rhs.curve }

    /// The length in bytes of a field element (one coordinate), e.g. 32 for brainpoolP256r1.
    public var fieldSize: Int { Int((EC_GROUP_get_degree(handle) + 7) / 8) }

    /// The group order n, big-endian without leading zeros.
    public var order: [UInt8] {
        guard let n = EC_GROUP_get0_order(handle) else { return [] }
        var out = [UInt8](repeating: 0, count: Int((BN_num_bits(n) + 7) / 8))
        _ = out.withUnsafeMutableBufferPointer { BN_bn2bin(n, $0.baseAddress) }
        return out
    }

    /// The length in bytes of a scalar (the order's byte length).
    public var orderSize: Int {
        guard let n = EC_GROUP_get0_order(handle) else { return 0 }
        return Int((BN_num_bits(n) + 7) / 8)
    }

    /// The curve's standard generator G.
    public func generator() throws -> ECPoint {
        guard let g = EC_GROUP_get0_generator(handle), let copy = EC_POINT_dup(g, handle) else {
            throw CryptoError.openSSL(function: "EC_POINT_dup")
        }
        return ECPoint(group: self, owning: copy)
    }

    /// A uniformly random scalar in 1 ..< n from OpenSSL's private DRBG, `orderSize` bytes.
    public func randomScalar() throws -> [UInt8] {
        guard let n = EC_GROUP_get0_order(handle) else { throw CryptoError.openSSL(function: "EC_GROUP_get0_order") }
        let k = try BigNumber()
        repeat {
            guard BN_priv_rand_range(k.handle, n) == 1 else {
                throw CryptoError.openSSL(function: "BN_priv_rand_range")
            }
        } while k.isZero
        return try k.bytes(paddedTo: orderSize)
    }

    /// Checks that `scalar` (big-endian) is in 1 ..< n and returns it as a BIGNUM.
    func validScalar(_ scalar: [UInt8]) throws -> BigNumber {
        let k = try BigNumber(bytes: scalar)
        guard let n = EC_GROUP_get0_order(handle) else { throw CryptoError.openSSL(function: "EC_GROUP_get0_order") }
        guard !k.isZero, BN_cmp(k.handle, n) < 0 else { throw CryptoError.invalidScalar }
        return k
    }
}
