import SmartCard

/// What goes wrong in Chip Authentication and passive authentication.
public enum ChipAuthenticationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// EF.CardSecurity has no ChipAuthenticationInfo of version 2 with a protocol this library runs.
    case noChipAuthenticationInfo
    /// EF.CardSecurity has no ChipAuthenticationPublicKeyInfo for the chosen key id, or its key
    /// is not an EC point on standardized domain parameters.
    case noUsablePublicKey(keyID: Int?)
    /// The card refused a command (`step` names it).
    case refused(step: EACStep, EACCommandOutcome)
    /// The GENERAL AUTHENTICATE answer is not 7C { 81 nonce, 82 token }.
    case malformedResponse
    /// The card's token T_PICC is wrong: the card does not hold the private key of EF.CardSecurity.
    case tokenMismatch
    /// MSE:Set AT for CA holds other data objects than 80 [84] (the card answers 6A80).
    case malformedTemplate
    /// The ephemeral key is not on the curve of the card's static key.
    case ephemeralKeyOnWrongCurve
    /// EF.CardSecurity is not signed by a document signer of the trusted CSCA, or not
    /// SignedData over SecurityInfos.
    case passiveAuthenticationFailed
    /// EF.CardSecurity is not a ContentInfo with SignedData over id-SecurityObject holding DER
    /// SecurityInfos (its signature not looked at).
    case malformedCardSecurity

    public var description: String {
        switch self {
        case .noChipAuthenticationInfo: return "EF.CardSecurity offers no Chip Authentication version 2 eid can run"
        case .noUsablePublicKey(let id):
            return "EF.CardSecurity has no usable Chip Authentication public key" + (id.map { " with id \($0)" } ?? "")
        case .refused(let step, let outcome): return step.refusal(outcome)
        case .malformedResponse: return "the card's Chip Authentication answer is malformed"
        case .tokenMismatch: return "the card's authentication token is wrong: the chip is not genuine"
        case .malformedTemplate: return "MSE:Set AT for Chip Authentication holds unexpected data objects"
        case .ephemeralKeyOnWrongCurve: return "the ephemeral key is not on the curve of the card's key"
        case .passiveAuthenticationFailed:
            return "EF.CardSecurity is not signed by a document signer of the trusted CSCA"
        case .malformedCardSecurity: return "EF.CardSecurity is not SignedData over SecurityInfos"
        }
    }
}
