import EAC
import EIDCrypto

/// A series of test CVCAs, generation 1 to `maximum` (TEST ONLY), for CVCA link chains of every length
/// (TR-03124-2 module C3, whose CERT_SET_4 has CERT_CV_CVCA_4_1 … _s and the link certificates between
/// them). Generation k is `DEEIDTESTLK0000k`, its key derived from the project's test CVCA's private key
/// (`TestCertificateAuthority.project`, whose curve and algorithm it shares) and k, so that eid-testserver,
/// eid-sim and a test, each in its own process, agree on every generation without sharing a file. Its private
/// key is as public as the project CVCA's: nothing trusts it unless told to.
///
/// Generation k is effective from 2026-01-0k, so each is newer than the one before (a card moves its trust
/// point only to a newer CVCA), and valid to 2056-01-01. The link certificate of generation k (k ≥ 2)
/// carries generation k's key, signed by generation k − 1 (CAR k − 1, CHR k).
public enum TestCVCAGenerations {
    /// The newest generation there is.
    public static let maximum = 9

    /// The CHR of `generation` (1 ... `maximum`).
    public static func holderReference(_ generation: Int) -> String {
        "DEEIDTESTLK0000\(generation)"
    }

    /// The generation whose CHR is `holderReference`, nil for any other.
    public static func generation(of holderReference: String) -> Int? {
        (1...maximum).first { self.holderReference($0) == holderReference }
    }

    /// Generation `generation` with its private key: self-signed, as a card or client is told to trust it.
    public static func authority(_ generation: Int) throws -> TestCertificateAuthority {
        let key = try keyPair(generation)
        let certificate = try body(generation, key: key).signed(
            by: key.privateKey, algorithm: TestCertificateAuthority.project.algorithm)
        return try TestCertificateAuthority(certificate: certificate, privateScalar: try key.privateKey.rawScalar())
    }

    /// The link certificate to `generation` (2 ... `maximum`) from the one before.
    public static func link(to generation: Int) throws -> CVCertificate {
        guard generation >= 2 else { throw TestPKIError.invalidGeneration(generation) }
        var body = try body(generation, key: try keyPair(generation))
        body.authorityReference = holderReference(generation - 1)
        let issuer = try keyPair(generation - 1)
        return try body.signed(by: issuer.privateKey, algorithm: TestCertificateAuthority.project.algorithm)
    }

    /// The key of `generation`: SHA-256 over the project CVCA's private scalar, a label and k, hashed again
    /// until it is a scalar of the curve.
    static func keyPair(_ generation: Int) throws -> ECKeyPair {
        guard (1...maximum).contains(generation) else { throw TestPKIError.invalidGeneration(generation) }
        let root = TestCertificateAuthority.project
        let group = root.keyPair.privateKey.group
        var seed =
            try root.keyPair.privateKey.rawScalar() + Array("eid test CVCA generation".utf8) + [UInt8(generation)]
        for _ in 0..<16 {
            seed = try Digest.sha256.hash(seed)
            if let key = try? ECKeyPair(group: group, privateScalar: seed) { return key }
        }
        throw TestPKIError.invalidGeneration(generation)
    }

    /// The body of `generation`'s certificate, self-signed as it stands (CAR = CHR).
    static func body(_ generation: Int, key: ECKeyPair) throws -> CVCertificateBody {
        let root = TestCertificateAuthority.project.certificate.body
        let chr = holderReference(generation)
        guard let effective = CalendarDate(year: 2026, month: 1, day: generation),
            let expiration = CalendarDate(year: 2056, month: 1, day: 1)
        else { throw TestPKIError.invalidGeneration(generation) }
        return CVCertificateBody(
            authorityReference: chr,
            publicKey: try CVPublicKey(
                algorithm: root.publicKey.algorithm, point: key.publicKey, includingDomainParameters: true),
            holderReference: chr, chat: root.chat, effectiveDate: effective, expirationDate: expiration)
    }
}
