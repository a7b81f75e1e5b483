/// DIDAuthenticateResponse (client; docs/protocol.md, "PAOS messages"): the result and the EAC step's output.
/// A response reporting an error carries no output ("Reporting a local failure"): its
/// AuthenticationProtocolData, which ISO24727-3.xsd requires, is an empty `iso:EmptyResponseDataType` with
/// the Protocol (as Open eCard sends it).
public struct DIDAuthenticateResponse: Equatable, Sendable {
    public var result: DSSResult
    public var protocolIdentifier: String?
    public var data: Output?

    public enum Output: Equatable, Sendable {
        case eac1(EAC1OutputType)
        case eac2(EAC2OutputType)
    }

    public init(
        result: DSSResult = .ok, _ data: Output?, protocolIdentifier: String? = DIDAuthenticate.eacProtocol
    ) {
        self.result = result
        self.data = data
        self.protocolIdentifier = protocolIdentifier
    }

    static let elementName = "DIDAuthenticateResponse"
    /// ISO24727-Protocols.xsd's type of AuthenticationProtocolData without content.
    static let emptyTypeName = "EmptyResponseDataType"

    init(element: XMLElement) throws(PAOSError) {
        let fields = PAOSFields(element, message: Self.elementName)
        result = try DSSResult(element: try fields.required(DSSResult.elementName), message: Self.elementName)
        let protocolData = try fields.optional("AuthenticationProtocolData")
        let type = protocolData?.qualifiedNameSuffix(of: "type", namespace: PAOSNamespace.xsi)
        protocolIdentifier = protocolData?.attribute("Protocol")?.trimmingXMLWhitespace()
        guard let protocolData, type != Self.emptyTypeName else {
            // Only an error report may come without output.
            guard result.major == .error else {
                throw .missingElement(message: Self.elementName, element: "AuthenticationProtocolData")
            }
            return
        }
        let dataFields = PAOSFields(protocolData, message: Self.elementName)
        switch type {
        case EAC1OutputType.typeName: data = .eac1(try EAC1OutputType(fields: dataFields))
        case EAC2OutputType.typeName: data = .eac2(try EAC2OutputType(fields: dataFields))
        default: throw .unknownAuthenticationProtocolType
        }
    }

    var element: XMLElement {
        var element = XMLElement(
            Self.elementName, namespace: PAOSNamespace.iso,
            attributes: [XMLAttribute("Profile", value: PAOSNamespace.profile)], children: [result.element])
        switch data {
        case .eac1(let output):
            element.children.append(
                authenticationProtocolData(typeName: EAC1OutputType.typeName, protocolIdentifier, output.children))
        case .eac2(let output):
            element.children.append(
                authenticationProtocolData(typeName: EAC2OutputType.typeName, protocolIdentifier, output.children))
        case nil:
            element.children.append(authenticationProtocolData(typeName: Self.emptyTypeName, protocolIdentifier, []))
        }
        return element
    }
}
