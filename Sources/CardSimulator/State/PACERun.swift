import EAC
import EIDCrypto
import SmartCard

/// Where the card's side of one PACE run stands between its General Authenticate commands,
/// kept in `CardSession.protocolState[PACERun.key]`. Holds the nonce and ephemeral keys, so it
/// is not printable; it is dropped by every error, by MSE:Set AT and by the end of the run.
struct PACERun: Sendable, CustomStringConvertible {
    static let key = "PACE"

    enum Stage: Sendable {
        /// Step 1 answered: the nonce s the terminal now has encrypted, zeroed when dropped.
        case nonceSent(nonce: Secret)
        /// Step 2 answered: the mapped generator G~.
        case mapped(generator: ECPoint)
        /// Step 3 answered: the card's ephemeral key pair, the terminal's ephemeral public
        /// key and the session keys derived from the shared secret.
        case keyAgreed(ephemeralKey: ECKeyPair, terminalKey: ECPoint, keys: SessionKeys)
    }

    let steps: PACESteps
    let password: PACEPasswordType
    /// Whether MSE:Set AT carried a CHAT (PACE for Terminal Authentication: step 4 names CARs).
    let hasCHAT: Bool
    /// The CHAT of MSE:Set AT, for Terminal Authentication's effective rights.
    var chat: CHAT? = nil
    var stage: Stage

    /// The General Authenticate step the card expects next (2...4).
    var nextStep: Int {
        switch stage {
        case .nonceSent: return 2
        case .mapped: return 3
        case .keyAgreed: return 4
        }
    }

    var description: String { "PACERun(\(password), next step \(nextStep), redacted)" }
}
