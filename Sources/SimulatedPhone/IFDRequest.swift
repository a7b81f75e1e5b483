import OrderedJSON
import SmartCard

/// A message the client (the desktop) sends the phone (TR-03112-6, IFDInterface_WebSocket_v2), read from
/// its JSON text. A field that is missing or of the wrong type reads as empty, as AusweisApp's phone
/// reads it (it logs the message as incomplete and handles it anyway); binary values are hex.
public enum IFDRequest: Equatable, Sendable {
    case establishContext(protocol: String, udName: String)
    case getStatus(slotName: String)
    case connect(slotName: String, exclusive: Bool)
    case disconnect(slotHandle: String)
    case transmit(slotHandle: String, inputAPDU: [UInt8]?, displayText: String?)
    case establishPACEChannel(slotHandle: String, inputData: [UInt8]?, expectedPINLength: Int?)
    case modifyPIN(slotHandle: String, inputData: [UInt8]?)
    case destroyPACEChannel(slotHandle: String)
    /// A `msg` the phone does not know (or none): answered with IFDError unknownAPIFunction.
    case unknown(String?)

    /// The message in `json` and the ContextHandle it names (nil for IFDEstablishContext, which has none).
    public static func parse(_ json: JSONValue) -> (request: IFDRequest, contextHandle: String?) {
        let msg = json["msg"]?.string
        let contextHandle = msg == "IFDEstablishContext" ? nil : (json["ContextHandle"]?.string ?? "")
        let slotHandle = json["SlotHandle"]?.string ?? ""
        let request: IFDRequest
        switch msg {
        case "IFDEstablishContext":
            request = .establishContext(
                protocol: json["Protocol"]?.string ?? "", udName: json["UDName"]?.string ?? "")
        case "IFDGetStatus":
            request = .getStatus(slotName: json["SlotName"]?.string ?? "")
        case "IFDConnect":
            var exclusive = false
            if case .bool(let value)? = json["exclusive"] { exclusive = value }
            request = .connect(slotName: json["SlotName"]?.string ?? "", exclusive: exclusive)
        case "IFDDisconnect":
            request = .disconnect(slotHandle: slotHandle)
        case "IFDTransmit":
            request = .transmit(
                slotHandle: slotHandle, inputAPDU: hex(json["InputAPDU"]), displayText: json["DisplayText"]?.string)
        case "IFDEstablishPACEChannel":
            var length: Int?
            if case .integer(let value)? = json["ExpectedPINLength"] { length = value }
            request = .establishPACEChannel(
                slotHandle: slotHandle, inputData: hex(json["InputData"]), expectedPINLength: length)
        case "IFDModifyPIN":
            request = .modifyPIN(slotHandle: slotHandle, inputData: hex(json["InputData"]))
        case "IFDDestroyPACEChannel":
            request = .destroyPACEChannel(slotHandle: slotHandle)
        default:
            request = .unknown(msg)
        }
        return (request, contextHandle)
    }

    private static func hex(_ value: JSONValue?) -> [UInt8]? {
        guard let text = value?.string else { return nil }
        return [UInt8](hex: text)
    }
}
