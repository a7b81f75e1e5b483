/// The files of a test PKI directory: what `eid-testserver pki --out DIR` writes and
/// `serve --pki DIR` reads (`ServerPKIDirectory`). TEST ONLY: the private keys lie in the clear.
public enum ServerPKIFile: String, CaseIterable, Sendable {
    /// The TLS server certificate and its key (PEM).
    case tlsCertificate = "tls-cert.pem"
    case tlsKey = "tls-key.pem"
    /// The origin the server is reached at (https://HOST:PORT), one line.
    case origin
    /// The CVCA certificate (DER): what a card or client is told to trust.
    case cvca = "cvca.cvcert"
    /// The CVCA's private key (hex scalar); optional for `serve`, which issues the certificates of
    /// the fault `chat_beyond_dv` with it.
    case cvcaKey = "cvca.key"
    /// The DV and authentication terminal (AT) certificates (DER) and their keys (hex scalars).
    case documentVerifier = "dv.cvcert"
    case documentVerifierKey = "dv.key"
    case terminal = "at.cvcert"
    case terminalKey = "at.key"
    /// The certificate description (DER) whose hash the AT certificate carries.
    case description = "description.der"
    /// The CSCA (X.509, DER), the trust anchor of passive authentication.
    case csca = "csca.cer"
    /// A document signer under the CSCA (X.509, DER) and its key (PKCS#8, DER), to sign the
    /// EF.CardSecurity of cards that are to pass passive authentication.
    case documentSigner = "ds.cer"
    case documentSignerKey = "ds.key"
    /// A card that matches: EF.CardAccess, EF.CardSecurity (signed by the document signer) and the
    /// chip's static Chip Authentication key (the raw private scalar, as vsmartcard's vicc
    /// `--ca-key` reads it).
    case cardAccess = "card-ef-cardaccess.bin"
    case cardSecurity = "card-ef-cardsecurity.bin"
    case cardChipAuthenticationKey = "card-ca.key"

    /// Whether the file holds a private key (written readable by its owner only).
    public var isPrivateKey: Bool {
        switch self {
        case .tlsKey, .cvcaKey, .documentVerifierKey, .terminalKey, .documentSignerKey, .cardChipAuthenticationKey:
            return true
        default: return false
        }
    }

    /// The files `serve --pki` cannot do without.
    public static let requiredByServe: [ServerPKIFile] = [
        .tlsCertificate, .tlsKey, .origin, .cvca, .documentVerifier, .documentVerifierKey, .terminal, .terminalKey,
        .description, .csca,
    ]
}
