import SmartCard

/// Processes the commands with one instruction byte. The card dispatches by INS after it has
/// checked CLA, parsed the APDU and removed secure messaging; GET CHALLENGE, TA and CA plug
/// in as further handlers (`SimulatedEIDCard.register`) next to PACE's General Authenticate (86).
///
/// Handlers answer with a response, or throw `CardError.statusWord` for an error status word;
/// any other thrown error becomes 6F00.
public protocol CardCommandHandler: Sendable {
    var instruction: UInt8 { get }
    /// Whether commands with the chaining bit (CLA 10) are accepted; others get 6884.
    var acceptsChaining: Bool { get }
    /// Whether commands with the proprietary class (CLA 80, or 8C with secure messaging) are
    /// accepted; others get 6E00.
    var acceptsProprietaryClass: Bool { get }
    func handle(_ command: CommandAPDU, context: inout CardContext) throws -> ResponseAPDU
}

extension CardCommandHandler {
    public var acceptsChaining: Bool { false }
    public var acceptsProprietaryClass: Bool { false }
}
