/// InitializeFramework (server, optional after StartPAOS; docs/protocol.md, "PAOS messages"): an empty
/// element in the eCard namespace.
public struct InitializeFramework: Equatable, Sendable {
    public init() {}

    static let elementName = "InitializeFramework"

    init(element: XMLElement) throws(PAOSError) {}

    var element: XMLElement { XMLElement(Self.elementName, namespace: PAOSNamespace.ecard) }
}
