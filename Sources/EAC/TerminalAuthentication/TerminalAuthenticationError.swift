import SmartCard

/// What goes wrong in Terminal Authentication, on either side.
public enum TerminalAuthenticationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The card refused a command (`step` names it) with this status word.
    case refused(step: EACStep, EACCommandOutcome)
    /// None of the certificates links to a CAR the card trusts (from PACE): the server must send
    /// the missing CVCA link certificates.
    case noPathToCardTrustPoint(cars: [String])
    /// GET CHALLENGE did not answer 8 bytes.
    case malformedChallenge
    /// MSE:Set AT for TA carries other data objects than 80, 83, [67], 91 (the card answers 6A80).
    case malformedTemplate
    /// The ephemeral key to announce is not on the Chip Authentication domain parameters.
    case invalidEphemeralKey

    public var description: String {
        switch self {
        case .refused(let step, let outcome): return step.refusal(outcome)
        case .noPathToCardTrustPoint(let cars):
            return "no certificate chain to the card's trust point \(cars.joined(separator: " or ")); "
                + "the server must send the CVCA link certificates"
        case .malformedChallenge: return "the card's challenge is not 8 bytes"
        case .malformedTemplate: return "MSE:Set AT for Terminal Authentication holds unexpected data objects"
        case .invalidEphemeralKey: return "the terminal's ephemeral key is not a point on the card's curve"
        }
    }
}
