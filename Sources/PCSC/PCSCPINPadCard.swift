import SmartCard

/// A card in a PC/SC reader that runs PACE itself (PC/SC Part 10 AMD1, FEATURE_EXECUTE_PACE),
/// as `PINPadConnection`: EstablishPACEChannel and DestroyPACEChannel through SCardControl with
/// the feature's control code, ModifyPIN through FEATURE_MODIFY_PIN_DIRECT (as AusweisApp does);
/// APDUs go to the card as with any reader, and the reader protects them while its PACE channel
/// is open.
public final class PCSCPINPadCard: PINPadConnection {
    public let card: PCSCCard
    let executePACE: UInt32
    let modifyPINDirect: UInt32?

    init(card: PCSCCard, executePACE: UInt32, modifyPINDirect: UInt32?) {
        self.card = card
        self.executePACE = executePACE
        self.modifyPINDirect = modifyPINDirect
    }

    /// The reader's PIN-pad features, or nil when it has no EXECUTE_PACE.
    convenience init?(card: PCSCCard, features: ReaderFeatures) {
        guard let pace = features.controlCodes[ReaderFeatures.executePACE] else { return nil }
        self.init(card: card, executePACE: pace, modifyPINDirect: features.controlCodes[ReaderFeatures.modifyPINDirect])
    }

    public var supportsExtendedLength: Bool { card.supportsExtendedLength }

    public func transmit(_ command: CommandAPDU) throws -> ResponseAPDU { try card.transmit(command) }

    public func transmit(encoded: [UInt8]) throws -> [UInt8] { try card.transmit(encoded: encoded) }

    public func disconnect(resetCard: Bool) { card.disconnect(resetCard: resetCard) }

    /// The reader's answer as it is (Result, lengthOutputData, OutputData); the caller reads it.
    public func establishPACEChannel(inputData: [UInt8], timeout: Double) throws -> [UInt8] {
        let output = try card.control(
            code: executePACE, data: try ExecutePACE.controlInput(.establishPACEChannel, inputData: inputData),
            timeout: timeout + Self.readerMargin)
        guard ExecutePACE.result(of: output) != nil else {
            throw CardError.malformedResponse("EstablishPACEChannel answered \(output.count) byte(s) out of frame")
        }
        return output
    }

    /// The card's status word, as the reader passes it on.
    public func modifyPIN(inputData: [UInt8], timeout: Double) throws -> [UInt8] {
        guard let modifyPINDirect else {
            throw CardError.transportFailed("the reader offers EXECUTE_PACE but not MODIFY_PIN_DIRECT")
        }
        return try card.control(code: modifyPINDirect, data: inputData, timeout: timeout + Self.readerMargin)
    }

    public func destroyPACEChannel() throws {
        let output = try card.control(
            code: executePACE, data: try ExecutePACE.controlInput(.destroyPACEChannel), timeout: Self.readerMargin)
        guard let result = ExecutePACE.result(of: output) else {
            throw CardError.malformedResponse("DestroyPACEChannel answered \(output.count) byte(s) out of frame")
        }
        guard result == 0 else { throw CardError.transportFailed("DestroyPACEChannel failed with result \(result)") }
    }

    /// Seconds the reader may take beyond the user's typing (PACE with the card, the display).
    static let readerMargin: Double = 10
}
