import EIDCrypto
import Foundation
import Testing

/// X.509 issuing and CMS SignedData through OpenSSL: a CSCA, a document signer under it, and
/// SignedData that verifies only under that CSCA, only unchanged, and only while valid.
@Suite struct CMSSignedDataTests {
    /// 2026-01-01T00:00:00Z.
    static let start: Int64 = 1_767_225_600

    struct PKI {
        let cscaKey: X509PrivateKey
        let csca: X509Certificate
        let signerKey: X509PrivateKey
        let signer: X509Certificate
    }

    /// A CSCA (20 years) and a document signer (10 years) on brainpoolP256r1, as the committed test
    /// PKI of eid-sim is made (`eid-test-pki generate-document-pki`, Sources/TestPKI/DocumentTestPKISource.swift).
    static func makePKI(days: Int = 7305) throws -> PKI {
        let cscaKey = try X509PrivateKey(generatingOn: .brainpoolP256r1)
        let csca = try X509Certificate.issue(
            subjectKey: cscaKey, country: "DE", commonName: "eid TEST ONLY CSCA", issuer: nil, issuerKey: nil,
            serial: 1, notBefore: start, days: days, isCA: true)
        let signerKey = try X509PrivateKey(generatingOn: .brainpoolP256r1)
        let signer = try X509Certificate.issue(
            subjectKey: signerKey, country: "DE", commonName: "eid TEST ONLY Document Signer", issuer: csca,
            issuerKey: cscaKey, serial: 2, notBefore: start, days: days / 2, isCA: false)
        return PKI(cscaKey: cscaKey, csca: csca, signerKey: signerKey, signer: signer)
    }

    static let securityObject = "0.4.0.127.0.7.3.2.1"

    @Test func signedDataVerifiesUnderItsCSCAOnly() throws {
        let pki = try Self.makePKI()
        let content: [UInt8] = [0x31, 0x03, 0x02, 0x01, 0x07]
        let signed = try CMSSignedData.sign(
            content, contentType: Self.securityObject, signer: pki.signer, key: pki.signerKey)
        let verified = try CMSSignedData.verify(signed, trustAnchor: pki.csca, time: Self.start + 86400)
        #expect(verified.content == content)
        #expect(verified.contentType == Self.securityObject)

        let other = try Self.makePKI()
        #expect(throws: X509Error.signatureNotVerified) {
            try CMSSignedData.verify(signed, trustAnchor: other.csca, time: Self.start + 86400)
        }
        // Before the certificates' validity, the path does not verify.
        #expect(throws: X509Error.signatureNotVerified) {
            try CMSSignedData.verify(signed, trustAnchor: pki.csca, time: Self.start - 86400)
        }
        // One changed byte of the content: the signature fails, with or without the CSCA.
        let index = try #require(signed.indices.first { signed[$0...].starts(with: content) })
        var tampered = signed
        tampered[index + 4] ^= 0x01
        #expect(throws: X509Error.signatureNotVerified) {
            try CMSSignedData.verify(tampered, trustAnchor: pki.csca, time: Self.start + 86400)
        }
        #expect(throws: X509Error.signatureNotVerified) { try CMSSignedData.verify(tampered, trustAnchor: nil) }
        #expect(throws: X509Error.signatureNotVerified) { try CMSSignedData.verify([0x30, 0x00], trustAnchor: nil) }
    }

    @Test func certificatesAndKeysRoundTrip() throws {
        let pki = try Self.makePKI()
        #expect(try X509Certificate(der: pki.csca.der) == pki.csca)
        let key = try X509PrivateKey(pkcs8: try pki.signerKey.pkcs8())
        let signed = try CMSSignedData.sign([1, 2, 3], contentType: Self.securityObject, signer: pki.signer, key: key)
        #expect(try CMSSignedData.verify(signed, trustAnchor: pki.csca, time: Self.start + 1).content == [1, 2, 3])
        #expect(throws: X509Error.malformedCertificate) { try X509Certificate(der: pki.csca.der + [0]) }
        #expect(throws: X509Error.malformedPrivateKey) { try X509PrivateKey(pkcs8: [0x30, 0x01, 0x00]) }
    }
}
