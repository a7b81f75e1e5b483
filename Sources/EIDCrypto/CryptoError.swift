/// What can go wrong in the crypto layer. Bad input (a point off the curve, a key of the wrong
/// length, broken padding) is reported here, never by a crash.
public enum CryptoError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bytes are not the uncompressed encoding of a point on the group's curve, or the
    /// point is the point at infinity.
    case invalidPoint
    /// Two points (or a point and a key) belong to different groups.
    case groupMismatch
    /// A private key or scalar is zero, negative or not below the group order.
    case invalidScalar
    /// A computation produced the point at infinity (e.g. a degenerate mapping or shared secret).
    case pointAtInfinity
    /// No elliptic curve is known for this TR-03110 standardized domain parameter id.
    case unsupportedDomainParameter(Int)
    /// A key has a length the algorithm does not accept (AES: 16, 24 or 32 bytes).
    case invalidKeyLength(Int)
    /// The input length is wrong (e.g. CBC data that is not a whole number of blocks, an IV
    /// that is not one block).
    case invalidDataLength(Int)
    /// ISO/IEC 9797-1 padding method 2 is not present or malformed.
    case invalidPadding
    /// An OpenSSL call failed; `function` names it.
    case openSSL(function: String)

    public var description: String {
        switch self {
        case .invalidPoint: return "not a valid point on the curve"
        case .groupMismatch: return "the values belong to different elliptic curve groups"
        case .invalidScalar: return "the scalar is not in the range 1 ..< order"
        case .pointAtInfinity: return "the computation resulted in the point at infinity"
        case .unsupportedDomainParameter(let id): return "standardized domain parameter \(id) is not supported"
        case .invalidKeyLength(let n): return "a key of \(n) bytes is not accepted"
        case .invalidDataLength(let n): return "input of \(n) bytes has the wrong length"
        case .invalidPadding: return "ISO/IEC 9797-1 padding method 2 is malformed"
        case .openSSL(let function):
            // When libcrypto itself could not be loaded, the sentence that says what to install.
            guard let problem = CryptoLibrary.loadProblem else { return "OpenSSL \(function) failed" }
            return "OpenSSL \(function) failed: \(problem)"
        }
    }
}
