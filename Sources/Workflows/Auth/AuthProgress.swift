/// How far an authentication is, as AusweisApp counts it for the SDK's STATUS message: a
/// percentage and the step it stands for. The percentage changes only on the steps below, and
/// STATUS is sent only when the progress changes (a second PACE, a second Transmit send none).
public struct AuthProgress: Equatable, Sendable {
    /// The step that set the progress.
    public enum Step: Equatable, Sendable {
        /// The TcToken is being fetched (0 %).
        case fetchingTcToken
        /// The first PACE with the user's password starts (the percentage stays where it was).
        case openingSecureChannel
        /// GET CHALLENGE and the EAC1 output: the provider is verified (20 %).
        case verifyingProvider
        /// Terminal and Chip Authentication: the card is verified (40 %).
        case verifyingCard
        /// The server's APDUs go to the card (60 %).
        case readingData
        /// The result goes to the provider: the refresh address (80 %).
        case sendingToProvider
    }

    public var percent: Int
    public var step: Step

    public init(percent: Int, step: Step) {
        self.percent = percent
        self.step = step
    }

    /// Where an authentication starts: the TcToken is fetched.
    public static let start = AuthProgress(percent: 0, step: .fetchingTcToken)

    /// The progress after entering `state` from `progress` (nil: none reported yet, as before
    /// StateGetTcToken, which reports `start`), or nil when `state` does not change it.
    public static func after(_ progress: AuthProgress?, entering state: AuthState) -> AuthProgress? {
        guard let progress else {
            if case .getTcToken = state { return start }
            return start.entering(state)
        }
        return progress.entering(state)
    }

    /// The progress after entering `state`, or nil when `state` does not change it.
    public func entering(_ state: AuthState) -> AuthProgress? {
        let next: AuthProgress
        switch state {
        case .pace(.establishPaceChannel, _): next = AuthProgress(percent: percent, step: .openingSecureChannel)
        case .didAuthenticateEac1: next = AuthProgress(percent: 20, step: .verifyingProvider)
        case .didAuthenticateEac2: next = AuthProgress(percent: 40, step: .verifyingCard)
        case .transmit: next = AuthProgress(percent: 60, step: .readingData)
        case .checkRefreshAddress: next = AuthProgress(percent: 80, step: .sendingToProvider)
        default: return nil
        }
        return next == self ? nil : next
    }
}
