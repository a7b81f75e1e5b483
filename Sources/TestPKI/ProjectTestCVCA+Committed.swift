import EAC
import SmartCard

extension TestCertificateAuthority {
    /// The project's committed test CVCA (`ProjectTestCVCA.swift`, made by `make test-pki`):
    /// the default trust anchor of eid-sim and the issuer of the test terminals. TEST ONLY.
    public static let project: TestCertificateAuthority = {
        do {
            guard let certificate = [UInt8](hex: projectCertificateHex),
                let scalar = [UInt8](hex: projectPrivateKeyHex)
            else { throw TestPKIError.keyDoesNotMatchCertificate(projectHolderReference) }
            return try TestCertificateAuthority(
                certificate: try CVCertificate(encoded: certificate), privateScalar: scalar)
        } catch {
            // Only a broken commit gets here; TestPKITests decodes the committed material.
            preconditionFailure("the committed test CVCA does not decode (\(error)): run `make test-pki`")
        }
    }()

    /// The committed test CVCA's certificate alone, without its key: what a trust anchor needs (`--test-pki`).
    /// Decoding it computes nothing, where `project` checks the key against the certificate, which activates
    /// OpenSSL's default provider (about 2 MiB) in a process that may never need it (an idle `eid serve`). TEST ONLY.
    public static let projectCertificate: CVCertificate = {
        guard let encoded = [UInt8](hex: projectCertificateHex), let certificate = try? CVCertificate(encoded: encoded)
        else {
            // Only a broken commit gets here; TestPKITests decodes the committed material.
            preconditionFailure("the committed test CVCA does not decode: run `make test-pki`")
        }
        return certificate
    }()
}
