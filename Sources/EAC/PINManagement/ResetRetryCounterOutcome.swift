import SmartCard

/// What the card's answer to RESET RETRY COUNTER means (the tables at
/// `CommandAPDU.resetRetryCounter(change:)` and `resetRetryCounter(unblock:)`).
public enum ResetRetryCounterOutcome: Equatable, Sendable {
    /// 9000: the PIN is changed or unblocked.
    case done
    /// Unblock only: 6982, 6983 or 6984 right after PACE with the PUK: the PUK has unblocked the
    /// PIN as often as it may and can do nothing more.
    case pukInoperative
    /// Any other status word.
    case refused(StatusWord)

    /// The outcome of a PIN change (`resetRetryCounter(change:)`).
    public init(changeStatus sw: StatusWord) {
        self = sw.isSuccess ? .done : .refused(sw)
    }

    /// The outcome of an unblock (`resetRetryCounter(unblock:)`) sent after PACE with the PUK.
    public init(unblockStatus sw: StatusWord) {
        switch sw {
        case .success: self = .done
        case .securityStatusNotSatisfied, .authenticationMethodBlocked, .referenceDataNotUsable:
            self = .pukInoperative
        default: self = .refused(sw)
        }
    }
}
