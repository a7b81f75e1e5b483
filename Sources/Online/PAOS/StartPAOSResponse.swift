/// StartPAOSResponse (server, last; docs/protocol.md, "PAOS messages"): the outcome of the whole exchange.
/// It may come instead of any message the client waits for; after it the client sends nothing.
public struct StartPAOSResponse: Equatable, Sendable {
    public var result: DSSResult

    public init(result: DSSResult) { self.result = result }

    static let elementName = "StartPAOSResponse"

    init(element: XMLElement) throws(PAOSError) {
        let fields = PAOSFields(element, message: Self.elementName)
        result = try DSSResult(element: try fields.required(DSSResult.elementName), message: Self.elementName)
    }

    var element: XMLElement {
        XMLElement(
            Self.elementName, namespace: PAOSNamespace.iso,
            attributes: [XMLAttribute("Profile", value: PAOSNamespace.profile)], children: [result.element])
    }
}
