import EAC
import EIDCrypto
import TestVectors
import Testing

@Suite("Certificate description (id-description)")
struct CertificateDescriptionTests {
    @Test(arguments: [
        CertificateDescription.TermsOfUsage.plainText("Geschäftszweck: Test\r\nÄÖÜ"),
        .html("<html><body>Test</body></html>"), .pdf([0x25, 0x50, 0x44, 0x46, 0x2D]),
    ])
    func encodesAndDecodesEachFormat(terms: CertificateDescription.TermsOfUsage) throws {
        let description = try CertificateDescription(
            issuerName: "eid Test DV", issuerURL: "https://dv.example", subjectName: "eid Test Service",
            subjectURL: "https://service.example", termsOfUsage: terms, redirectURL: "https://service.example/done",
            commCertificates: [[UInt8](repeating: 0xBB, count: 32), [UInt8](repeating: 0xAA, count: 32)])
        let decoded = try CertificateDescription(encoded: description.encoded)
        #expect(decoded == description)
        #expect(decoded.termsOfUsage == terms)
        // DER: the SET OF hashes is sorted.
        #expect(decoded.commCertificates?.first == [UInt8](repeating: 0xAA, count: 32))
    }

    @Test func hashCheckAgainstAnIssuedTerminalCertificate() throws {
        let description = try CertificateDescription(
            issuerName: "eid Test DV", subjectName: "eid Test Service", subjectURL: "https://service.example",
            termsOfUsage: .plainText("Test"))
        let pki = try TestPKI(descriptionHash: try Digest.sha256.hash(description.encoded))
        #expect(try description.matches(pki.terminal))
        let other = try CertificateDescription(
            issuerName: "eid Test DV", subjectName: "Another Service", subjectURL: "https://service.example",
            termsOfUsage: .plainText("Test"))
        #expect(try !other.matches(pki.terminal))
        #expect(try !description.matches(try TestPKI().terminal), "no id-description extension")
    }

    @Test func refusesMalformedDescriptions() throws {
        let good = try CertificateDescription(
            issuerName: "I", subjectName: "S", subjectURL: "https://s", termsOfUsage: .plainText("T")
        ).encoded
        #expect(throws: CVCertificateError.trailingBytes(after: 0x30, count: 1)) {
            try CertificateDescription(encoded: good + [0])
        }
        #expect(throws: CVCertificateError.truncated(inside: 0x30)) {
            try CertificateDescription(encoded: Array(good.dropLast()))
        }
        // An unknown descriptionType (…3.1.3.1.9).
        var unknownType = good
        unknownType[13] = 0x09
        #expect(throws: CVCertificateError.unknownDescriptionType("0.4.0.127.0.7.3.1.3.1.9")) {
            try CertificateDescription(encoded: unknownType)
        }
        // issuerName as PrintableString instead of UTF8String.
        var wrongString = good
        wrongString[16] = 0x13
        #expect(throws: CVCertificateError.unexpectedTag(expected: 0x0C, found: 0x13)) {
            try CertificateDescription(encoded: wrongString)
        }
    }
}
