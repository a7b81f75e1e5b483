/// TransmitResponse (client; docs/protocol.md, "PAOS messages"): the result and one response APDU (data and
/// status word) per command sent, up to and including the first one not accepted.
public struct TransmitResponse: Equatable, Sendable {
    public var result: DSSResult
    public var outputAPDUs: [[UInt8]]

    public init(result: DSSResult = .ok, outputAPDUs: [[UInt8]]) {
        self.result = result
        self.outputAPDUs = outputAPDUs
    }

    static let elementName = "TransmitResponse"

    init(element: XMLElement) throws(PAOSError) {
        let fields = PAOSFields(element, message: Self.elementName)
        result = try DSSResult(element: try fields.required(DSSResult.elementName), message: Self.elementName)
        outputAPDUs = try fields.hexList("OutputAPDU")
        guard outputAPDUs.allSatisfy({ $0.count >= 2 }) else {
            throw .invalidValue(message: Self.elementName, element: "OutputAPDU")
        }
        guard !outputAPDUs.isEmpty || result.major == .error else {
            throw .missingElement(message: Self.elementName, element: "OutputAPDU")
        }
    }

    var element: XMLElement {
        var element = XMLElement(
            Self.elementName, namespace: PAOSNamespace.iso,
            attributes: [XMLAttribute("Profile", value: PAOSNamespace.profile)], children: [result.element])
        element.children += outputAPDUs.map { .hex("OutputAPDU", namespace: PAOSNamespace.iso, $0) }
        return element
    }
}
