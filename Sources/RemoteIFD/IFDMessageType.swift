/// The value of "msg" in an IFD message (TR-03112-6 IFD Service, AusweisApp's
/// `IfdMessageType`): what eid sends and what a phone answers.
public enum IFDMessageType: String, Sendable, CaseIterable {
    case establishContext = "IFDEstablishContext"
    case establishContextResponse = "IFDEstablishContextResponse"
    case getStatus = "IFDGetStatus"
    case status = "IFDStatus"
    case connect = "IFDConnect"
    case connectResponse = "IFDConnectResponse"
    case disconnect = "IFDDisconnect"
    case disconnectResponse = "IFDDisconnectResponse"
    case transmit = "IFDTransmit"
    case transmitResponse = "IFDTransmitResponse"
    case establishPACEChannel = "IFDEstablishPACEChannel"
    case establishPACEChannelResponse = "IFDEstablishPACEChannelResponse"
    case modifyPIN = "IFDModifyPIN"
    case modifyPINResponse = "IFDModifyPINResponse"
    case destroyPACEChannel = "IFDDestroyPACEChannel"
    case destroyPACEChannelResponse = "IFDDestroyPACEChannelResponse"
    case error = "IFDError"

    /// Whether the message carries ResultMajor and ResultMinor.
    public var isResponse: Bool { self == .error || rawValue.hasSuffix("Response") }
}

/// The protocol versions of the IFD interface: eid speaks v2, the one AusweisApp speaks since
/// 1.22 (v0 sent PINCapabilities, CommandAPDUs and the CCID PACE structures instead).
public enum IFDProtocol {
    public static let v2 = "IFDInterface_WebSocket_v2"
}
