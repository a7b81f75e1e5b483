import COpenSSL

/// An OpenSSL BIGNUM, owned: cleared and freed in deinit. Internal to the crypto layer.
final class BigNumber {
    let handle: OpaquePointer

    init() throws {
        guard let bn = BN_new() else { throw CryptoError.openSSL(function: "BN_new") }
        handle = bn
    }

    /// The non-negative integer with big-endian `bytes` (leading zeros allowed).
    convenience init(bytes: [UInt8]) throws {
        try self.init()
        let ok = bytes.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, Int32($0.count), handle) }
        guard ok != nil else { throw CryptoError.openSSL(function: "BN_bin2bn") }
    }

    deinit { BN_clear_free(handle) }

    var isZero: Bool { BN_is_zero(handle) == 1 }

    var byteCount: Int { Int((BN_num_bits(handle) + 7) / 8) }

    /// Big-endian bytes, left-padded with zeros to `length` (which must be large enough).
    func bytes(paddedTo length: Int) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: length)
        let n = out.withUnsafeMutableBufferPointer { BN_bn2binpad(handle, $0.baseAddress, Int32(length)) }
        guard n == Int32(length) else { throw CryptoError.openSSL(function: "BN_bn2binpad") }
        return out
    }

    /// -1, 0 or 1 as self is less than, equal to or greater than `other`.
    func compare(_ other: BigNumber) -> Int32 { BN_cmp(handle, other.handle) }
}

/// A BN_CTX scratch area for one computation. Its temporaries can hold secret intermediates
/// (of d · P, say); BN_CTX_free clears every BIGNUM of its pool with BN_clear_free.
final class BigNumberContext {
    let handle: OpaquePointer

    init() throws {
        guard let ctx = BN_CTX_new() else { throw CryptoError.openSSL(function: "BN_CTX_new") }
        handle = ctx
    }

    deinit { BN_CTX_free(handle) }
}
