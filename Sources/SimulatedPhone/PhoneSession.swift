import OrderedJSON
import SmartCard

/// The phone's side of one client connection (TR-03112-6 IFD Service, IFDInterface_WebSocket_v2), as
/// AusweisApp's IFD server answers: IFDEstablishContext first (a second one, or another protocol, is
/// refused with unknownError), then messages whose ContextHandle matches (others are dropped without an
/// answer, as AusweisApp drops them); an unknown `msg` gets IFDError unknownAPIFunction. Transport-free:
/// text in through `receive`, text out through `send`; IFDStatus is pushed when the card comes or goes.
/// Called from one thread at a time (the connection's event loop).
public final class PhoneSession: @unchecked Sendable {
    public static let supportedProtocol = "IFDInterface_WebSocket_v2"

    let reader: PhoneCardReader
    let ifdName: String
    let send: @Sendable (String) -> Void
    let faults: PhoneFaults
    private(set) var contextHandle = ""
    /// The client's name from IFDEstablishContext (UDName).
    public private(set) var clientName = ""
    /// Slot handle of the one connected card, if any.
    var slotHandle: String?
    private var observer: Int?
    private var transmits = 0

    public init(
        reader: PhoneCardReader, ifdName: String, faults: PhoneFaults = PhoneFaults(),
        send: @escaping @Sendable (String) -> Void
    ) {
        self.reader = reader
        self.ifdName = ifdName
        self.faults = faults
        self.send = send
    }

    /// The connection ended: no more status pushes, the phone's PACE channel ends.
    public func closed() {
        if let observer { reader.removeObserver(observer) }
        observer = nil
        if slotHandle != nil { reader.destroyPACEChannel() }
        slotHandle = nil
    }

    /// Handles one text message; what it answers goes out through `send`. Returns what the transport
    /// must do afterwards (a fault).
    @discardableResult
    public func receive(_ text: [UInt8]) -> PhoneFaults.Action {
        guard let json = try? JSONValue(parsing: text, limits: JSONLimits(maxBytes: 1 << 20, maxDepth: 8)) else {
            reply(IFDReply.error(contextHandle: contextHandle, slotHandle: "", result: .error(.unknownAPIFunction)))
            return .none
        }
        let (request, named) = IFDRequest.parse(json)
        if case .unknown = request {
            reply(IFDReply.error(contextHandle: contextHandle, slotHandle: "", result: .error(.unknownAPIFunction)))
            return .none
        }
        if case .establishContext(let proto, let name) = request {
            establishContext(protocol: proto, udName: name)
            return .none
        }
        guard let named, !named.isEmpty, named == contextHandle else { return .none }
        return handle(request)
    }

    private func establishContext(protocol proto: String, udName: String) {
        let refused = !contextHandle.isEmpty || proto != Self.supportedProtocol
        if !refused { clientName = udName }
        guard !refused else {
            reply(
                IFDReply.establishContextResponse(
                    contextHandle: contextHandle, ifdName: ifdName, result: .error(.unknownError)))
            return
        }
        contextHandle = PhoneUUID.make()
        reply(IFDReply.establishContextResponse(contextHandle: contextHandle, ifdName: ifdName, result: .ok))
        observer = reader.addObserver { [weak self] in self?.cardChanged() }
    }

    private func handle(_ request: IFDRequest) -> PhoneFaults.Action {
        switch request {
        case .getStatus(let slotName):
            if !slotName.isEmpty && slotName != reader.name {
                // AusweisApp answers an unknown slot name with an IFDConnectResponse.
                reply(
                    IFDReply.connectResponse(
                        contextHandle: contextHandle, slotHandle: slotName,
                        result: .error(.unknownSlot)))
            } else {
                reply(IFDReply.status(contextHandle: contextHandle, slot: reader.status))
            }
        case .connect(let slotName, _): connect(slotName)
        case .disconnect(let slot):
            let result: IFDResult = slot == slotHandle ? .ok : .error(.invalidSlotHandle)
            if result == .ok {
                reader.destroyPACEChannel()
                slotHandle = nil
            }
            reply(IFDReply.disconnectResponse(contextHandle: contextHandle, slotHandle: slot, result: result))
        case .transmit(let slot, let apdu, _): return transmit(slot, apdu)
        case .establishPACEChannel(let slot, let input, _): establishPACEChannel(slot, input)
        case .modifyPIN(let slot, let input): modifyPIN(slot, input)
        case .destroyPACEChannel(let slot):
            let result = pinPadResult(slot)
            if result == .ok { reader.destroyPACEChannel() }
            reply(IFDReply.destroyPACEChannelResponse(contextHandle: contextHandle, slotHandle: slot, result: result))
        case .establishContext, .unknown: break
        }
        return .none
    }

    private func connect(_ slotName: String) {
        let result: IFDResult
        if slotName != reader.name {
            result = .error(.unknownSlot)
        } else if !reader.cardPresent {
            result = .error(.unknownError)
        } else if slotHandle != nil {
            result = .error(.sharingViolation)
        } else {
            result = .ok
        }
        guard result == .ok else {
            // AusweisApp puts the slot name where the handle would be.
            reply(IFDReply.connectResponse(contextHandle: contextHandle, slotHandle: slotName, result: result))
            return
        }
        let handle = PhoneUUID.make()
        slotHandle = handle
        reply(IFDReply.connectResponse(contextHandle: contextHandle, slotHandle: handle, result: .ok))
    }

    private func transmit(_ slot: String, _ apdu: [UInt8]?) -> PhoneFaults.Action {
        guard slot == slotHandle else {
            reply(
                IFDReply.transmitResponse(
                    contextHandle: contextHandle, slotHandle: slot, responseAPDU: [],
                    result: .error(.invalidSlotHandle)))
            return .none
        }
        transmits += 1
        if let action = faults.beforeTransmit(transmits) { return action }
        if let apdu, !apdu.isEmpty, let response = reader.transmit(apdu) {
            reply(
                IFDReply.transmitResponse(
                    contextHandle: contextHandle, slotHandle: slot, responseAPDU: response,
                    result: .ok))
        } else {
            reply(
                IFDReply.transmitResponse(
                    contextHandle: contextHandle, slotHandle: slot, responseAPDU: [],
                    result: .error(.unknownError)))
        }
        if faults.removesCard(after: transmits) { reader.removeCard() }
        return .none
    }

    /// OK when `slot` is the connected card and the phone is in PIN-pad mode; else the error AusweisApp gives.
    private func pinPadResult(_ slot: String) -> IFDResult {
        guard slot == slotHandle else { return .error(.invalidSlotHandle) }
        return reader.pinPad ? .ok : .error(.unknownError)
    }

    private func establishPACEChannel(_ slot: String, _ inputData: [UInt8]?) {
        var result = pinPadResult(slot)
        var output = PhonePACEOutput(resultCode: PhonePACEOutput.communicationAbort)
        if result == .ok {
            if let input = inputData.flatMap(PhonePACEInput.init(bytes:)) {
                output = reader.establishPACEChannel(input)
                result = Self.result(forPACE: output.resultCode)
            } else {
                output = PhonePACEOutput(resultCode: PhonePACEOutput.unexpectedDataInInput)
            }
        }
        reply(
            IFDReply.establishPACEChannelResponse(
                contextHandle: contextHandle, slotHandle: slot, output: output,
                result: result))
    }

    /// The ResultMinor beside a PACE result code: only a missing card, a cancellation and a timeout are
    /// errors of the message; a wrong PIN is a successful message whose ResultCode tells.
    static func result(forPACE code: UInt32) -> IFDResult {
        switch code {
        case PhonePACEOutput.noCard: return .error(.noCard)
        case PhonePACEOutput.abort: return .error(.cancellationByUser)
        case 0xF020_0002: return .error(.timeoutError)
        default: return .ok
        }
    }

    private func modifyPIN(_ slot: String, _ inputData: [UInt8]?) {
        var result = pinPadResult(slot)
        var output: [UInt8] = []
        if result == .ok {
            switch inputData.map({ $0.isEmpty }) == false ? reader.modifyPIN() : .badFormat {
            case .answered(let response):
                output = response
                result = response.suffix(2) == [0x90, 0x00] ? .ok : .error(.unknownError)
            case .cancelled: result = .error(.cancellationByUser)
            case .badFormat: result = .error(.unknownPINFormat)
            case .noCard: result = .error(.noCard)
            }
        }
        reply(
            IFDReply.modifyPINResponse(
                contextHandle: contextHandle, slotHandle: slot, outputData: output,
                result: result))
    }

    /// The card came or went: a removed card loses its slot handle; IFDStatus goes to the client.
    private func cardChanged() {
        if !reader.cardPresent { slotHandle = nil }
        reply(IFDReply.status(contextHandle: contextHandle, slot: reader.status))
    }

    private func reply(_ message: JSONValue) { send(message.text) }
}
