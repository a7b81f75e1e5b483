import SmartCard

extension PCSCError {
    /// The card layer's view of this failure, so that the layers above the reader (the
    /// workflows) need not know PC/SC: a removed card stays a removed card, another program's
    /// exclusive hold is `cardInUse`, and the rest keep PC/SC's own sentence with its next step.
    public var cardError: CardError {
        switch self {
        case .cardRemoved: return .cardRemoved
        case .sharingViolation: return .cardInUse
        case .serviceNotRunning: return .readerServiceUnavailable(description)
        default: return .readerFailed(description)
        }
    }
}
