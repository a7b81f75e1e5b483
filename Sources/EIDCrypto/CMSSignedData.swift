import COpenSSL

/// CMS SignedData (RFC 5652) through OpenSSL's CMS_sign / CMS_verify: the format of
/// EF.CardSecurity (BSI TR-03110-3, A.1.2.2; ICAO 9303-10, 4.6.2), signed by a document signer
/// whose certificate chains to a CSCA. Passive authentication verifies it; the software card signs.
public enum CMSSignedData {
    /// The result of a successful verification.
    public struct Content: Equatable, Sendable {
        /// eContentType, dotted (e.g. "0.4.0.127.0.7.3.2.1", id-SecurityObject).
        public let contentType: String
        /// The encapsulated content (eContent's OCTET STRING value).
        public let content: [UInt8]
    }

    /// Verifies `der` (a ContentInfo with SignedData): every signer's signature over the content,
    /// and the signer certificate's path to `trustAnchor` at `time` (seconds since 1970; nil: now).
    /// With `trustAnchor` nil only the signatures are checked (the signer certificate in the
    /// message is taken as it is), for data whose CSCA is not at hand. Throws
    /// `X509Error.signatureNotVerified` for anything that fails.
    public static func verify(_ der: [UInt8], trustAnchor: X509Certificate?, time: Int64? = nil) throws -> Content {
        var type = [CChar](repeating: 0, count: 128)
        var length = 0
        let content = der.withUnsafeBufferPointer { d in
            type.withUnsafeMutableBufferPointer { t in
                eid_cms_verify(d.baseAddress, d.count, trustAnchor?.handle, time ?? 0, t.baseAddress, 128, &length)
            }
        }
        ERR_clear_error()
        guard let content else { throw X509Error.signatureNotVerified }
        defer { eid_openssl_free(content) }
        let bytes = Array(UnsafeBufferPointer(start: content, count: length))
        let typeText = String(decoding: type.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return Content(contentType: typeText, content: bytes)
    }

    /// SignedData over `content` with eContentType `contentType` (dotted), signed with SHA-256 by
    /// `signer` / `key` with signed attributes; the signer certificate is included.
    public static func sign(
        _ content: [UInt8], contentType: String, signer: X509Certificate, key: X509PrivateKey
    ) throws -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>? = nil
        let n = content.withUnsafeBufferPointer {
            eid_cms_sign($0.baseAddress, $0.count, contentType, signer.handle, key.handle, &out)
        }
        ERR_clear_error()
        guard n > 0, let out else { throw X509Error.signingFailed }
        defer { eid_openssl_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: n))
    }
}
