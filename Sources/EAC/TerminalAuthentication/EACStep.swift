/// The card commands of Terminal and Chip Authentication, as an error names the one the card
/// refused (`TerminalAuthenticationError.refused`, `ChipAuthenticationError.refused`).
public enum EACStep: String, Sendable {
    // Terminal Authentication
    case setDST = "MSE:Set DST"
    case verifyCertificate = "PSO:Verify Certificate"
    case getChallenge = "GET CHALLENGE"
    case externalAuthenticate = "EXTERNAL AUTHENTICATE"
    // Both (with other data objects)
    case setAT = "MSE:Set AT"
    // Chip Authentication and passive authentication
    case generalAuthenticate = "GENERAL AUTHENTICATE"
    case readCardSecurity = "READ BINARY EF.CardSecurity"

    /// What an error says when the card answered this step with `outcome`.
    func refusal(_ outcome: EACCommandOutcome) -> String {
        "the card refused \(rawValue) (status word \(outcome.statusWord))"
    }
}
