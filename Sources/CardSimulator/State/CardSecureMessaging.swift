import SmartCard

/// The card's side of secure messaging, installed in the session by a successful PACE. The
/// card unwraps every command with the SM bits in CLA before dispatching it by INS and wraps
/// the handler's response. An error in `unwrap` ends secure messaging; the card answers the
/// thrown `CardError.statusWord` (6987 / 6988) or else 6988, unprotected.
public protocol CardSecureMessaging: Sendable {
    mutating func unwrap(_ command: CommandAPDU) throws -> CommandAPDU
    mutating func wrap(_ response: ResponseAPDU) -> ResponseAPDU
}
