import SmartCard

/// The card in a phone's slot, connected with IFDConnect: APDUs go as IFDTransmit, and in
/// PIN-pad mode PACE and ModifyPIN go to the phone (the PIN is typed there). A card the phone says
/// is gone, and a phone that is gone, are `CardError.cardRemoved`.
public final class RemoteCardConnection: PINPadConnection {
    let session: IFDSession
    public let slotName: String
    let slotHandle: String
    public let supportsExtendedLength: Bool
    /// The slot's card events when the card was connected: once they move, the card left.
    let cardEvents: UInt32

    init(session: IFDSession, slotName: String, slotHandle: String, supportsExtendedLength: Bool, cardEvents: UInt32) {
        self.session = session
        self.slotName = slotName
        self.slotHandle = slotHandle
        self.supportsExtendedLength = supportsExtendedLength
        self.cardEvents = cardEvents
    }

    /// Sends IFDConnect for `slotName` and returns the connection with the phone's SlotHandle.
    public static func connect(session: IFDSession, slotName: String, exclusive: Bool) throws -> RemoteCardConnection {
        let slot = session.slots.first { $0.status.slotName == slotName }
        guard let slot, slot.status.cardAvailable else { throw CardError.cardRemoved }
        let answer = try mapped(session, slotName: slotName) {
            try session.request(.connect(slotName: slotName, exclusive: exclusive), timeout: session.timeouts.response)
        }
        guard let handle = try? answer.string("SlotHandle"), !handle.isEmpty else {
            throw CardError.malformedResponse("the phone's IFDConnectResponse has no SlotHandle")
        }
        return RemoteCardConnection(
            session: session, slotName: slotName, slotHandle: handle,
            supportsExtendedLength: slot.status.supportsExtendedLength, cardEvents: slot.cardEvents)
    }

    /// Throws `cardRemoved` when the phone has told, since IFDConnect, that the card left: an
    /// answer that came after that is not the connected card's. (PersoSim answers APDUs without
    /// a card with 6F78 and ResultMajor ok, after pushing IFDStatus with CardAvailable false.)
    func requireSameCard() throws {
        let slot = session.slots.first { $0.status.slotName == slotName }
        guard let slot, slot.cardEvents == cardEvents, slot.status.cardAvailable else { throw CardError.cardRemoved }
    }

    public func transmit(_ command: CommandAPDU) throws -> ResponseAPDU {
        try ResponseAPDU(bytes: transmit(encoded: command.bytes))
    }

    public func transmit(encoded: [UInt8]) throws -> [UInt8] {
        let request = IFDRequest.transmit(slotHandle: slotHandle, apdu: encoded, displayText: nil)
        let answer = try Self.mapped(session, slotName: slotName) {
            try session.request(request, timeout: session.timeouts.response)
        }
        try requireSameCard()
        let bytes: [UInt8]
        do { bytes = try answer.hex("ResponseAPDU") } catch { throw CardError.malformedResponse("\(error)") }
        guard bytes.count >= 2 else { throw CardError.malformedResponse("the phone's ResponseAPDU has no status word") }
        return bytes
    }

    public func disconnect(resetCard: Bool) {
        _ = try? session.request(.disconnect(slotHandle: slotHandle), timeout: session.timeouts.response)
    }

    /// IFDEstablishPACEChannel: returns what a PC/SC reader's FEATURE_EXECUTE_PACE returns, the
    /// phone's ResultCode (4 bytes, as sent) followed by the length of OutputData (2 bytes, little
    /// endian) and OutputData, so that one decoder serves both kinds of PIN-pad reader.
    public func establishPACEChannel(inputData: [UInt8], timeout: Double) throws -> [UInt8] {
        let request = IFDRequest.establishPACEChannel(
            slotHandle: slotHandle, inputData: inputData, expectedPINLength: 0)
        let answer = try Self.mapped(session, slotName: slotName) {
            try session.request(request, timeout: session.timeouts.response + timeout)
        }
        try requireSameCard()
        do {
            let resultCode = try answer.hex("ResultCode")
            let outputData = try answer.hex("OutputData")
            guard resultCode.count == 4, outputData.count <= 0xFFFF else {
                throw RemoteIFDError.malformedMessage("ResultCode is not 4 bytes")
            }
            return resultCode + [UInt8(outputData.count & 0xFF), UInt8(outputData.count >> 8)] + outputData
        } catch {
            throw CardError.malformedResponse("\(error)")
        }
    }

    /// IFDModifyPIN: returns OutputData, the card's status word. A result of repeatedDataMismatch
    /// or unknownPINFormat still carries it (the phone's entries did not match or fit).
    public func modifyPIN(inputData: [UInt8], timeout: Double) throws -> [UInt8] {
        let request = IFDRequest.modifyPIN(slotHandle: slotHandle, inputData: inputData)
        let answer = try Self.mapped(session, slotName: slotName) {
            try session.exchange(request, timeout: session.timeouts.response + timeout)
        }
        try requireSameCard()
        let outputData = try? answer.hex("OutputData")
        if let result = answer.result, !result.isOK {
            let carriesStatus = result.minor == .repeatedDataMismatch || result.minor == .unknownPINFormat
            guard carriesStatus, let outputData, outputData.count >= 2 else {
                throw Self.cardError(RemoteIFDError.failed(.modifyPIN, result))
            }
        }
        guard let outputData else { throw CardError.malformedResponse("the phone's OutputData is not hex") }
        return outputData
    }

    public func destroyPACEChannel() throws {
        try Self.mapped(session, slotName: slotName) {
            try session.request(.destroyPACEChannel(slotHandle: slotHandle), timeout: session.timeouts.response)
        }
    }

    /// Runs `body`, turning the phone's errors into card errors; a request that failed after the
    /// phone told that the card in `slotName` left is a removed card, whatever the result says.
    @discardableResult
    static func mapped<T>(_ session: IFDSession, slotName: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as RemoteIFDError {
            let slot = session.slots.first { $0.status.slotName == slotName }
            if slot?.status.cardAvailable == false { throw CardError.cardRemoved }
            throw cardError(error)
        }
    }

    /// A phone error as a card error: the card or the phone gone is `cardRemoved`; a timeout of the
    /// reader's user input is `timeout`; anything else a transport failure that names it.
    static func cardError(_ error: RemoteIFDError) -> CardError {
        switch error {
        case .connectionLost, .timedOut: return .cardRemoved
        case .failed(_, let result), .phoneError(_, let result):
            if result.saysCardGone { return .cardRemoved }
            if result.minor == .readerTimeoutError { return .timeout }
            return .transportFailed(error.description)
        default: return .transportFailed(error.description)
        }
    }
}
