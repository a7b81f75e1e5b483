import SmartCard

/// The outcome of PACE with a password.
public enum PACEOutcome: Equatable {
    case established
    /// The card refused the password; `statusWord` is 63Cx when it counts attempts.
    case wrongPassword(StatusWord)
}
