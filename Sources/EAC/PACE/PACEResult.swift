import SmartCard

/// What a successful PACE run yields (BSI TR-03110-2, 3.2; TR-03110-3, B.1).
public struct PACEResult: Sendable {
    public let `protocol`: PACEProtocol
    /// KSenc and KSmac for secure messaging: the same object the `SecureMessaging` channel of
    /// `establishSecureMessaging()` runs with, so closing that channel wipes them here too; they
    /// are wiped at the latest when the last holder lets go.
    public let sessionKeys: SessionKeys
    /// ID_PICC: the x-coordinate of the card's ephemeral public key (TR-03110-3, A.3.5),
    /// needed by Terminal Authentication.
    public let idPICC: [UInt8]
    /// The card's ephemeral public key PK_PICC (uncompressed).
    public let chipEphemeralPublicKey: [UInt8]
    /// The status word of MSE:Set AT: 9000, or 63Cx / 6283 which callers show to the user.
    public let setAuthenticationTemplateStatus: StatusWord
    /// CAR 1 (tag 87): the most recent certification authority reference the card trusts.
    public let mostRecentCAR: String?
    /// CAR 2 (tag 88): the previous certification authority reference, if any.
    public let previousCAR: String?
    /// Tag 8A of step 4 (PACE-CAM only), as received.
    public let encryptedChipAuthenticationData: [UInt8]?
}
