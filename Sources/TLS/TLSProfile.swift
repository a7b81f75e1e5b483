/// What a TLS channel of the eID client offers and demands (TR-03116-4, TR-03124-1; the values AusweisApp
/// ships in its `tlsSettings` and `tlsSettingsPsk`). OpenSSL names throughout.
public struct TLSProfile: Sendable, Equatable {
    /// The highest protocol version offered; the lowest is always TLS 1.2.
    public enum MaximumVersion: Sendable, Equatable {
        case tls12
        case tls13
    }

    public var maximumVersion: MaximumVersion
    /// TLS 1.2 cipher suites, in order of preference (an OpenSSL cipher list).
    public var cipherSuites: String
    /// TLS 1.3 cipher suites, in order of preference; unused when `maximumVersion` is `.tls12`.
    public var tls13CipherSuites: String
    /// Supported groups for (EC)DHE, in order of preference; nil leaves OpenSSL's default.
    public var groups: String?
    /// Signature algorithms offered.
    public var signatureAlgorithms: String
    public var minimumKeySizes: MinimumKeySizes

    /// TLS-1 and TLS-1-2 (the TcToken fetch, every redirect hop) and TLS-2 without a pre-shared key: TLS 1.2 or
    /// 1.3, forward-secret AES-GCM suites, brainpool and NIST groups (brainpool only in TLS 1.2: OpenSSL 3.0 has
    /// no RFC 8734 groups).
    public static let web = TLSProfile(
        maximumVersion: .tls13,
        cipherSuites: [
            "ECDHE-ECDSA-AES256-GCM-SHA384", "ECDHE-RSA-AES256-GCM-SHA384", "DHE-RSA-AES256-GCM-SHA384",
            "ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-RSA-AES128-GCM-SHA256", "DHE-RSA-AES128-GCM-SHA256",
        ].joined(separator: ":"),
        tls13CipherSuites: "TLS_AES_256_GCM_SHA384:TLS_AES_128_GCM_SHA256",
        groups: "brainpoolP512r1:brainpoolP384r1:brainpoolP256r1:secp384r1:prime256v1",
        signatureAlgorithms: signatureAlgorithmsSHA2,
        minimumKeySizes: .tr02102
    )

    /// TLS-2 with the TcToken's pre-shared key (RFC 4279): TLS 1.2 only, the RSA-PSK suites of TR-03124-1 §4.5
    /// (RSA-PSK-AES256-CBC-SHA is the required one), GCM first.
    public static let preSharedKey = TLSProfile(
        maximumVersion: .tls12,
        cipherSuites: [
            "RSA-PSK-AES256-GCM-SHA384", "RSA-PSK-AES256-CBC-SHA384", "RSA-PSK-AES128-GCM-SHA256",
            "RSA-PSK-AES128-CBC-SHA256", "RSA-PSK-AES256-CBC-SHA",
        ].joined(separator: ":"),
        tls13CipherSuites: "",
        groups: nil,
        signatureAlgorithms: signatureAlgorithmsSHA2,
        minimumKeySizes: .tr02102
    )

    static let signatureAlgorithmsSHA2 = [
        "ECDSA+SHA512", "ECDSA+SHA384", "ECDSA+SHA256",
        "rsa_pss_rsae_sha512", "rsa_pss_rsae_sha384", "rsa_pss_rsae_sha256",
        "RSA+SHA512", "RSA+SHA384", "RSA+SHA256",
    ].joined(separator: ":")
}
