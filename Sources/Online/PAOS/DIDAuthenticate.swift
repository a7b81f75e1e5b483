/// DIDAuthenticate (server; docs/protocol.md, "PAOS messages"): one EAC step, with the connection handle,
/// the DID name and AuthenticationProtocolData whose xsi:type says which step it is.
public struct DIDAuthenticate: Equatable, Sendable {
    public var connectionHandle: ConnectionHandle?
    public var didName: String?
    /// The Protocol attribute of AuthenticationProtocolData.
    public var protocolIdentifier: String?
    public var data: Input

    public enum Input: Equatable, Sendable {
        case eac1(EAC1InputType)
        case eac2(EAC2InputType)
        case eacAdditional(EACAdditionalInputType)
    }

    /// id-EAC (TR-03110), the Protocol of EAC1 and EAC2 inputs.
    public static let eacProtocol = "urn:oid:1.3.162.15480.3.0.14.2"
    /// What AusweisApp's fixtures show on EACAdditionalInputType.
    public static let eacAdditionalProtocol = "urn:oid:1.3.162.15480.3.0.14"

    public init(
        _ data: Input, connectionHandle: ConnectionHandle? = .eID, didName: String? = "PIN",
        protocolIdentifier: String? = nil
    ) {
        self.data = data
        self.connectionHandle = connectionHandle
        self.didName = didName
        if let protocolIdentifier {
            self.protocolIdentifier = protocolIdentifier
        } else if case .eacAdditional = data {
            self.protocolIdentifier = Self.eacAdditionalProtocol
        } else {
            self.protocolIdentifier = Self.eacProtocol
        }
    }

    static let elementName = "DIDAuthenticate"

    init(element: XMLElement) throws(PAOSError) {
        let fields = PAOSFields(element, message: Self.elementName)
        let protocolData = try fields.required("AuthenticationProtocolData")
        let dataFields = PAOSFields(protocolData, message: Self.elementName)
        let input: Input
        switch protocolData.qualifiedNameSuffix(of: "type", namespace: PAOSNamespace.xsi) {
        case EAC1InputType.typeName: input = .eac1(try EAC1InputType(fields: dataFields))
        case EAC2InputType.typeName: input = .eac2(try EAC2InputType(fields: dataFields))
        case EACAdditionalInputType.typeName: input = .eacAdditional(try EACAdditionalInputType(fields: dataFields))
        default: throw .unknownAuthenticationProtocolType
        }
        self.data = input
        connectionHandle = try fields.optional("ConnectionHandle").map { (handle) throws(PAOSError) in
            try ConnectionHandle(element: handle, message: Self.elementName)
        }
        didName = try fields.text("DIDName")
        protocolIdentifier = protocolData.attribute("Protocol")?.trimmingXMLWhitespace()
    }

    var element: XMLElement {
        let ns = PAOSNamespace.iso
        var element = XMLElement(Self.elementName, namespace: ns)
        if let connectionHandle { element.children.append(connectionHandle.element(typed: false)) }
        if let didName { element.children.append(.text("DIDName", namespace: ns, didName)) }
        let typeName: String
        let children: [XMLElement]
        switch data {
        case .eac1(let input): (typeName, children) = (EAC1InputType.typeName, input.children)
        case .eac2(let input): (typeName, children) = (EAC2InputType.typeName, input.children)
        case .eacAdditional(let input): (typeName, children) = (EACAdditionalInputType.typeName, input.children)
        }
        element.children.append(authenticationProtocolData(typeName: typeName, protocolIdentifier, children))
        return element
    }
}

/// AuthenticationProtocolData with its xsi:type and Protocol attributes.
func authenticationProtocolData(typeName: String, _ protocolIdentifier: String?, _ children: [XMLElement])
    -> XMLElement
{
    var attributes = [XMLAttribute("type", namespace: PAOSNamespace.xsi, value: "iso:" + typeName)]
    if let protocolIdentifier { attributes.append(XMLAttribute("Protocol", value: protocolIdentifier)) }
    return XMLElement(
        "AuthenticationProtocolData", namespace: PAOSNamespace.iso, attributes: attributes, children: children)
}
