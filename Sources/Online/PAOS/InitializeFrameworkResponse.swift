/// InitializeFrameworkResponse (client; docs/protocol.md, "PAOS messages"): the result and the framework's
/// version (Major, Minor, SubMinor — spelled so here, unlike StartPAOS's Subminor).
public struct InitializeFrameworkResponse: Equatable, Sendable {
    public var result: DSSResult
    public var version: Version?

    public struct Version: Equatable, Sendable {
        public var major: Int
        public var minor: Int
        public var subMinor: Int

        public static let ecardAPI115 = Version(major: 1, minor: 1, subMinor: 5)
    }

    public init(result: DSSResult = .ok, version: Version? = .ecardAPI115) {
        self.result = result
        self.version = version
    }

    static let elementName = "InitializeFrameworkResponse"

    init(element: XMLElement) throws(PAOSError) {
        let fields = PAOSFields(element, message: Self.elementName)
        result = try DSSResult(element: try fields.required(DSSResult.elementName), message: Self.elementName)
        if let version = try fields.optional("Version") {
            let versionFields = PAOSFields(version, message: Self.elementName)
            self.version = Version(
                major: try versionFields.requiredInteger("Major"), minor: try versionFields.integer("Minor") ?? 0,
                subMinor: try versionFields.integer("SubMinor") ?? 0)
        }
    }

    var element: XMLElement {
        let ns = PAOSNamespace.ecard
        var element = XMLElement(
            Self.elementName, namespace: ns, attributes: [XMLAttribute("Profile", value: PAOSNamespace.profile)])
        element.children.append(result.element)
        if let version {
            element.children.append(
                XMLElement(
                    "Version", namespace: ns,
                    children: [
                        .text("Major", namespace: ns, String(version.major)),
                        .text("Minor", namespace: ns, String(version.minor)),
                        .text("SubMinor", namespace: ns, String(version.subMinor)),
                    ]))
        }
        return element
    }
}
