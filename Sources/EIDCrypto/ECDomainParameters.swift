import COpenSSL

/// Explicit elliptic curve domain parameters over a prime field as CV certificates carry them
/// (BSI TR-03110-3, D.3.3: prime p, coefficients a and b, base point G, order r, cofactor f),
/// each an unsigned big-endian integer (G uncompressed, 04 || x || y).
///
/// Only the standardized curves are supported: explicit parameters are accepted when they are
/// exactly those of one `ECCurve`, which `curve()` finds. Arbitrary curves are refused on purpose
/// (no weak or crafted groups reach OpenSSL).
public struct ECDomainParameters: Equatable, Sendable {
    public var prime: [UInt8]
    public var a: [UInt8]
    public var b: [UInt8]
    public var generator: [UInt8]
    public var order: [UInt8]
    public var cofactor: [UInt8]

    public init(prime: [UInt8], a: [UInt8], b: [UInt8], generator: [UInt8], order: [UInt8], cofactor: [UInt8]) {
        self.prime = prime
        self.a = a
        self.b = b
        self.generator = generator
        self.order = order
        self.cofactor = cofactor
    }

    /// The standardized curve with exactly these parameters (leading zero bytes of the integers
    /// ignored); throws `ECDSAError.unknownDomainParameters` for any other curve.
    public func curve() throws -> ECCurve {
        for curve in ECCurve.allCases where try ECGroup(curve).domainParameters.sameValues(as: self) {
            return curve
        }
        throw ECDSAError.unknownDomainParameters
    }

    private func sameValues(as other: ECDomainParameters) -> Bool {
        func strip(_ v: [UInt8]) -> ArraySlice<UInt8> { v.drop { $0 == 0 } }
        return strip(prime) == strip(other.prime) && strip(a) == strip(other.a) && strip(b) == strip(other.b)
            && generator == other.generator && strip(order) == strip(other.order)
            && strip(cofactor) == strip(other.cofactor)
    }
}

extension ECGroup {
    /// The group's explicit domain parameters: p, a, b padded to the field size, G uncompressed,
    /// the order padded to its byte length, the cofactor minimal (e.g. 01).
    public var domainParameters: ECDomainParameters {
        get throws {
            let p = try BigNumber()
            let a = try BigNumber()
            let b = try BigNumber()
            let h = try BigNumber()
            let ctx = try BigNumberContext()
            guard EC_GROUP_get_curve(handle, p.handle, a.handle, b.handle, ctx.handle) == 1 else {
                throw CryptoError.openSSL(function: "EC_GROUP_get_curve")
            }
            guard EC_GROUP_get_cofactor(handle, h.handle, ctx.handle) == 1 else {
                throw CryptoError.openSSL(function: "EC_GROUP_get_cofactor")
            }
            return ECDomainParameters(
                prime: try p.bytes(paddedTo: fieldSize), a: try a.bytes(paddedTo: fieldSize),
                b: try b.bytes(paddedTo: fieldSize), generator: try generator().encoded, order: order,
                cofactor: try h.bytes(paddedTo: max(1, h.byteCount)))
        }
    }

    /// The OpenSSL short name of the curve ("brainpoolP256r1", "prime256v1", ...).
    var openSSLName: String {
        guard let sn = OBJ_nid2sn(curve.nid) else { return curve.rawValue }
        return String(cString: sn)
    }
}
