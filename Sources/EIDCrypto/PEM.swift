import COpenSSL

/// PEM text (RFC 7468) through OpenSSL's base64 decoder.
public enum PEM {
    /// The DER bytes of the first CERTIFICATE block in `text`, nil when there is none or its base64
    /// is not valid.
    public static func decodeCertificate(_ text: String) -> [UInt8]? {
        let begin = "-----BEGIN CERTIFICATE-----"
        let end = "-----END CERTIFICATE-----"
        guard let start = text.firstRange(of: begin)?.upperBound,
            let stop = text[start...].firstRange(of: end)?.lowerBound
        else { return nil }
        let base64 = Array(text[start..<stop].utf8.filter { $0 > 0x20 })
        guard !base64.isEmpty, base64.count % 4 == 0 else { return nil }
        var out = [UInt8](repeating: 0, count: base64.count / 4 * 3)
        let n = base64.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer {
                EVP_DecodeBlock($0.baseAddress, input.baseAddress, Int32(input.count))
            }
        }
        guard n >= 0 else { return nil }
        let padding = base64.suffix(2).filter { $0 == UInt8(ascii: "=") }.count
        return Array(out.prefix(Int(n) - padding))
    }
}
