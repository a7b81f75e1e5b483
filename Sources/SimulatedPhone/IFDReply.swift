import OrderedJSON
import SmartCard

/// The phone's messages to the client (TR-03112-6, IFDInterface_WebSocket_v2) as JSON objects, with the
/// members in the order AusweisApp writes them: msg, ContextHandle, SlotHandle, ResultMajor,
/// ResultMinor, then the message's own fields; binary values as lowercase hex.
enum IFDReply {
    static func establishContextResponse(contextHandle: String, ifdName: String, result: IFDResult) -> JSONValue {
        response("IFDEstablishContextResponse", contextHandle, nil, result, [("IFDName", .string(ifdName))])
    }

    static func connectResponse(contextHandle: String, slotHandle: String, result: IFDResult) -> JSONValue {
        response("IFDConnectResponse", contextHandle, slotHandle, result, [])
    }

    static func disconnectResponse(contextHandle: String, slotHandle: String, result: IFDResult) -> JSONValue {
        response("IFDDisconnectResponse", contextHandle, slotHandle, result, [])
    }

    static func transmitResponse(contextHandle: String, slotHandle: String, responseAPDU: [UInt8], result: IFDResult)
        -> JSONValue
    {
        response(
            "IFDTransmitResponse", contextHandle, slotHandle, result,
            [("ResponseAPDU", .string(responseAPDU.hexString))])
    }

    static func establishPACEChannelResponse(
        contextHandle: String, slotHandle: String, output: PhonePACEOutput, result: IFDResult
    ) -> JSONValue {
        response(
            "IFDEstablishPACEChannelResponse", contextHandle, slotHandle, result,
            [
                ("ResultCode", .string(output.resultCodeBytes.hexString)),
                ("OutputData", .string(output.outputData.hexString)),
            ])
    }

    static func modifyPINResponse(contextHandle: String, slotHandle: String, outputData: [UInt8], result: IFDResult)
        -> JSONValue
    {
        response(
            "IFDModifyPINResponse", contextHandle, slotHandle, result, [("OutputData", .string(outputData.hexString))])
    }

    static func destroyPACEChannelResponse(contextHandle: String, slotHandle: String, result: IFDResult) -> JSONValue {
        response("IFDDestroyPACEChannelResponse", contextHandle, slotHandle, result, [])
    }

    static func error(contextHandle: String, slotHandle: String, result: IFDResult) -> JSONValue {
        response("IFDError", contextHandle, slotHandle, result, [])
    }

    /// IFDStatus: the slot (the phone's NFC reader), whether it does PACE itself, and whether a card lies on it.
    static func status(contextHandle: String, slot: PhoneSlotStatus) -> JSONValue {
        .object([
            ("msg", .string("IFDStatus")), ("ContextHandle", .string(contextHandle)),
            ("SlotName", .string(slot.name)), ("PINPad", .bool(slot.pinPad)),
            ("MaxAPDULength", .integer(slot.maxAPDULength)), ("ConnectedReader", .bool(true)),
            ("CardAvailable", .bool(slot.cardAvailable)), ("EFATR", .null), ("EFDIR", .null),
        ])
    }

    private static func response(
        _ msg: String, _ contextHandle: String, _ slotHandle: String?, _ result: IFDResult,
        _ fields: [(String, JSONValue)]
    ) -> JSONValue {
        var members: [(String, JSONValue)] = [("msg", .string(msg)), ("ContextHandle", .string(contextHandle))]
        if let slotHandle { members.append(("SlotHandle", .string(slotHandle))) }
        members.append(("ResultMajor", .string(result.major)))
        members.append(("ResultMinor", result.minor.map { .string($0) } ?? .null))
        return .object(members + fields)
    }
}

/// What IFDStatus reports about the phone's one slot.
struct PhoneSlotStatus: Equatable, Sendable {
    var name: String
    var pinPad: Bool
    var maxAPDULength: Int
    var cardAvailable: Bool
}
