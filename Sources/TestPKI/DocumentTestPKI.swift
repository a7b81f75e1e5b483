import EAC
import EIDCrypto
import SmartCard

/// TEST ONLY. The document PKI of the project's test cards: passive authentication's CSCA and
/// document signer, and the software card's Chip Authentication key:
/// a CSCA and a document signer (brainpoolP256r1, ECDSA-SHA-256, valid 2026-01-01 + 20 / 10
/// years) and the static CA key pair, generated once by the library
/// (`eid-test-pki generate-document-pki`, DocumentTestPKISource.swift) and committed with their PRIVATE KEYS, so that
/// eid-sim (which signs its EF.CardSecurity with it) and the test eID server (which verifies
/// it against the CSCA) agree without setup. It lives here, not in CardSimulator, so that the
/// server needs no card. Nothing here is secret or trustworthy: never trust this CSCA for a
/// real card.
public enum DocumentTestPKI {
    /// The test CSCA certificate (DER), the trust anchor for EF.CardSecurity of eid-sim.
    public static let csca: X509Certificate = material(DocumentTestPKIMaterial.csca) { try X509Certificate(der: $0) }
    /// TEST ONLY: the CSCA's private key (PKCS#8), to issue further document signers.
    public static let cscaKey: X509PrivateKey = material(DocumentTestPKIMaterial.cscaKey) {
        try X509PrivateKey(pkcs8: $0)
    }
    /// The document signer certificate that signs EF.CardSecurity.
    public static let documentSigner: X509Certificate = material(DocumentTestPKIMaterial.documentSigner) {
        try X509Certificate(der: $0)
    }
    /// TEST ONLY: the document signer's private key (PKCS#8).
    public static let documentSignerKey: X509PrivateKey = material(DocumentTestPKIMaterial.documentSignerKey) {
        try X509PrivateKey(pkcs8: $0)
    }
    /// TEST ONLY: the static Chip Authentication key pair (brainpoolP256r1).
    public static let chipAuthenticationKey: ECKeyPair = material(DocumentTestPKIMaterial.chipAuthenticationKey) {
        try ECKeyPair(group: try ECGroup(.brainpoolP256r1), privateScalar: $0)
    }

    /// The committed constants are known to decode (CardSimulatorTests and TestPKITests decode every one).
    private static func material<T>(_ hex: String, _ decode: ([UInt8]) throws -> T) -> T {
        guard let bytes = [UInt8](hex: hex), let value = try? decode(bytes) else {
            preconditionFailure("the committed test PKI material does not decode")
        }
        return value
    }
}
