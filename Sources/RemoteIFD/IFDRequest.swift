import OrderedJSON
import SmartCard

/// A message eid sends to the phone (protocol v2), and the response type it waits for. Binary
/// values go as lower-case hex; members in the order AusweisApp writes them.
public enum IFDRequest: Equatable, Sendable {
    /// Opens the context: the protocol eid speaks and the name the phone shows for this computer.
    case establishContext(udName: String)
    /// Asks for an IFDStatus of every slot (an empty SlotName), or of one.
    case getStatus(slotName: String)
    case connect(slotName: String, exclusive: Bool)
    case disconnect(slotHandle: String)
    /// One command APDU; DisplayText is what the phone shows meanwhile (nil: nothing new).
    case transmit(slotHandle: String, apdu: [UInt8], displayText: String?)
    /// PC/SC Part 10 AMD1 EstablishPACEChannel InputData; ExpectedPINLength only when known (> 0).
    case establishPACEChannel(slotHandle: String, inputData: [UInt8], expectedPINLength: Int)
    /// PC/SC PIN_MODIFY InputData.
    case modifyPIN(slotHandle: String, inputData: [UInt8])
    case destroyPACEChannel(slotHandle: String)

    public var type: IFDMessageType {
        switch self {
        case .establishContext: return .establishContext
        case .getStatus: return .getStatus
        case .connect: return .connect
        case .disconnect: return .disconnect
        case .transmit: return .transmit
        case .establishPACEChannel: return .establishPACEChannel
        case .modifyPIN: return .modifyPIN
        case .destroyPACEChannel: return .destroyPACEChannel
        }
    }

    /// The answer this request waits for; nil for IFDGetStatus, which IFDStatus messages answer.
    public var responseType: IFDMessageType? {
        switch self {
        case .establishContext: return .establishContextResponse
        case .getStatus: return nil
        case .connect: return .connectResponse
        case .disconnect: return .disconnectResponse
        case .transmit: return .transmitResponse
        case .establishPACEChannel: return .establishPACEChannelResponse
        case .modifyPIN: return .modifyPINResponse
        case .destroyPACEChannel: return .destroyPACEChannelResponse
        }
    }

    /// The message as one JSON text; IFDEstablishContext goes without ContextHandle.
    public func text(contextHandle: String) -> String {
        var members: [(String, JSONValue)] = [("msg", .string(type.rawValue))]
        if type != .establishContext { members.append(("ContextHandle", .string(contextHandle))) }
        switch self {
        case .establishContext(let udName):
            members += [("Protocol", .string(IFDProtocol.v2)), ("UDName", .string(udName))]
        case .getStatus(let slotName):
            members.append(("SlotName", .string(slotName)))
        case .connect(let slotName, let exclusive):
            members += [("SlotName", .string(slotName)), ("exclusive", .bool(exclusive))]
        case .disconnect(let slotHandle), .destroyPACEChannel(let slotHandle):
            members.append(("SlotHandle", .string(slotHandle)))
        case .transmit(let slotHandle, let apdu, let displayText):
            members += [("SlotHandle", .string(slotHandle)), ("InputAPDU", .string(apdu.hexString))]
            if let displayText { members.append(("DisplayText", .string(displayText))) }
        case .establishPACEChannel(let slotHandle, let inputData, let expectedPINLength):
            members += [("SlotHandle", .string(slotHandle)), ("InputData", .string(inputData.hexString))]
            if expectedPINLength > 0 { members.append(("ExpectedPINLength", .integer(expectedPINLength))) }
        case .modifyPIN(let slotHandle, let inputData):
            members += [("SlotHandle", .string(slotHandle)), ("InputData", .string(inputData.hexString))]
        }
        return JSONValue.object(members).text
    }
}
