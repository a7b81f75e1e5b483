import EIDCrypto
import SmartCard

/// A card verifiable certificate (BSI TR-03110-3, appendix C): `7F21 { 7F4E body, 5F37
/// signature }`. The signature is ECDSA in plain format r || s over the DER encoding of the
/// body, made with the key of the certificate named by the CAR. Parsing is strict (see
/// `CVCertificateError`) and `encoded` reproduces a parsed certificate byte for byte.
public struct CVCertificate: Equatable, Sendable {
    public static let tag: UInt32 = 0x7F21

    public let body: CVCertificateBody
    /// The plain ECDSA signature r || s (5F37).
    public let signature: [UInt8]

    public init(body: CVCertificateBody, signature: [UInt8]) {
        self.body = body
        self.signature = signature
    }

    /// Decodes exactly one certificate; truncated, over-long or trailing bytes are refused.
    public init(encoded bytes: [UInt8]) throws {
        var reader = CVDataObjectReader(try CVDataObjectReader.single(bytes, tag: CVCertificate.tag))
        body = try CVCertificateBody(tlv: try reader.read(CVCertificateBody.tag))
        signature = try reader.read(0x5F37).value
        try reader.finish()
        guard !signature.isEmpty, signature.count % 2 == 0 else {
            throw CVCertificateError.invalidSignatureLength(signature.count)
        }
    }

    /// Decodes the content of PSO:Verify Certificate: the body and signature objects without the
    /// outer 7F21 (TR-03110-3, B.11.5).
    public init(bodyAndSignature bytes: [UInt8]) throws {
        var tagged = TLV(tag: CVCertificate.tag, value: bytes).bytes
        if bytes.isEmpty { tagged = [] }
        try self.init(encoded: tagged)
    }

    public var tlv: TLV {
        get throws { TLV(tag: CVCertificate.tag, children: [try body.tlv, TLV(tag: 0x5F37, value: signature)]) }
    }

    /// The DER encoding `7F21 ...`.
    public var encoded: [UInt8] { get throws { try tlv.bytes } }

    /// The body and signature objects without 7F21, as PSO:Verify Certificate sends them.
    public var bodyAndSignature: [UInt8] { get throws { try tlv.value } }

    public var role: CertificateRole { body.chat.role }

    /// Whether the signature verifies under `issuerKey` (the public key of the certificate
    /// named by the CAR) with the hash of `issuerAlgorithm`. A signature whose length does not
    /// fit the issuer's group throws `CVCertificateError.invalidSignatureLength`.
    public func isSigned(by issuerKey: ECPoint, algorithm issuerAlgorithm: TAAlgorithm) throws -> Bool {
        guard signature.count == ECDSA.signatureLength(for: issuerKey.group) else {
            throw CVCertificateError.invalidSignatureLength(signature.count)
        }
        return try ECDSA.verify(signature, of: try body.encoded, digest: issuerAlgorithm.digest, publicKey: issuerKey)
    }
}

extension CVCertificateBody {
    /// The certificate with this body signed by `issuerKey` (the private key of the CAR's
    /// certificate, or of this body's own key for a self-signed CVCA) using `issuerAlgorithm`.
    public func signed(by issuerKey: ECPrivateKey, algorithm issuerAlgorithm: TAAlgorithm) throws -> CVCertificate {
        let signature = try ECDSA.sign(try encoded, digest: issuerAlgorithm.digest, privateKey: issuerKey)
        return CVCertificate(body: self, signature: signature)
    }
}
