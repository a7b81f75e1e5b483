import EAC
import TestPKI
import Testing

/// `--test-pki`'s trust anchor: the committed test CVCA's certificate, decoded without its key.
@Suite struct ProjectCertificateTests {
    @Test func theCertificateAloneIsTheCommittedCVCAs() throws {
        let alone = TestCertificateAuthority.projectCertificate
        #expect(try alone.encoded == TestCertificateAuthority.project.certificate.encoded)
        #expect("\(alone.body.holderReference)" == TestCertificateAuthority.projectHolderReference)
        #expect(alone.role == .cvca)
    }
}
