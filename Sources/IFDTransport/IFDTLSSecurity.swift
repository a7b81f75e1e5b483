import SmartCard

/// How the TLS of a connection to a phone is secured (TR-03112-6 IFD; AusweisApp's settings
/// `tlsSettingsRemoteIfdPairing` and `tlsSettingsRemoteIfd`). Both are TLS 1.2 with eid's client certificate;
/// the hostname is never checked (the phone has an address, not a name).
public enum IFDTLSSecurity: Sendable {
    /// Pairing: RSA-PSK with the ASCII bytes of the 4 digits the phone shows as the key and an empty PSK
    /// identity, as AusweisApp sends it. The phone's certificate is not checked against anything: it is
    /// returned (`IFDWebSocket.peerCertificateDER`) for the caller to store and pin.
    case pairing(code: Secret)
    /// A paired phone: ECDHE/DHE with RSA, and the SHA-256 of the phone's certificate (DER) must be this one.
    case paired(pinnedCertificateSHA256: [UInt8])

    /// The TLS 1.2 suites, in AusweisApp's order of preference.
    var cipherSuites: [String] {
        switch self {
        case .pairing:
            // PersoSim accepts only the last one.
            return ["RSA-PSK-AES256-GCM-SHA384", "RSA-PSK-AES128-GCM-SHA256", "RSA-PSK-AES256-CBC-SHA"]
        case .paired:
            return ["ECDHE-RSA-AES256-GCM-SHA384", "DHE-RSA-AES256-GCM-SHA384", "ECDHE-RSA-AES128-GCM-SHA256"]
        }
    }

    /// The (EC)DHE groups (paired only; RSA-PSK has no ephemeral key), AusweisApp's list.
    static let groups = ["brainpoolP512r1", "brainpoolP384r1", "brainpoolP256r1", "secp384r1", "prime256v1"]

    /// The signature algorithms for the server's and eid's signatures, AusweisApp's list.
    static let signatureAlgorithms = ["RSA+SHA512", "RSA+SHA384", "RSA+SHA256"]

    var isPairing: Bool {
        if case .pairing = self { return true }
        return false
    }
}
