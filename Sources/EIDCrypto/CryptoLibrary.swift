import COpenSSL

/// OpenSSL's libcrypto, which COpenSSL loads on the first call that needs it (so a command that computes
/// nothing never maps it).
public enum CryptoLibrary {
    /// Loads libcrypto if it is not loaded yet: nil when it is there with every function eid calls, else a
    /// sentence that says what is missing and what to install.
    public static var loadProblem: String? {
        eid_crypto_load().map { String(cString: $0) }
    }
}
