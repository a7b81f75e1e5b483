/// How IFDModifyPIN ended on the phone.
enum PhoneModifyPINOutcome: Equatable, Sendable {
    /// The card answered the RESET RETRY COUNTER with the new PIN: its response APDU.
    case answered([UInt8])
    /// The user cancelled (no new PIN typed).
    case cancelled
    /// The typed PIN does not fit a command.
    case badFormat
    /// No card on the reader, or it did not answer.
    case noCard
}
