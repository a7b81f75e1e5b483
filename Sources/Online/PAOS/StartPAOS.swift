/// StartPAOS (client, first POST; docs/protocol.md, "PAOS messages"): the TcToken's session, the card
/// application, who the client is and which eCard-API versions it speaks.
public struct StartPAOS: Equatable, Sendable {
    public var sessionIdentifier: String
    public var connectionHandles: [ConnectionHandle]
    public var userAgent: UserAgent?
    public var supportedAPIVersions: [APIVersion]
    /// Open eCard adds these (a list of protocol URIs); others leave them out.
    public var supportedDIDProtocols: [String]
    /// The Profile attribute (Open eCard sends it; AusweisApp does not).
    public var profile: String?

    public struct UserAgent: Equatable, Sendable {
        public var name: String
        public var versionMajor: Int
        public var versionMinor: Int
        public var versionSubminor: Int

        public init(name: String, versionMajor: Int, versionMinor: Int, versionSubminor: Int) {
            self.name = name
            self.versionMajor = versionMajor
            self.versionMinor = versionMinor
            self.versionSubminor = versionSubminor
        }
    }

    /// A version as StartPAOS writes it: Major, Minor, Subminor (optional).
    public struct APIVersion: Equatable, Sendable {
        public var major: Int
        public var minor: Int
        public var subminor: Int?

        public init(major: Int, minor: Int, subminor: Int? = nil) {
            self.major = major
            self.minor = minor
            self.subminor = subminor
        }

        /// eCard-API 1.1.5, what AusweisApp and Open eCard send.
        public static let ecardAPI115 = APIVersion(major: 1, minor: 1, subminor: 5)
    }

    public init(
        sessionIdentifier: String, connectionHandles: [ConnectionHandle] = [.eID], userAgent: UserAgent? = nil,
        supportedAPIVersions: [APIVersion] = [.ecardAPI115], supportedDIDProtocols: [String] = [],
        profile: String? = nil
    ) {
        self.sessionIdentifier = sessionIdentifier
        self.connectionHandles = connectionHandles
        self.userAgent = userAgent
        self.supportedAPIVersions = supportedAPIVersions
        self.supportedDIDProtocols = supportedDIDProtocols
        self.profile = profile
    }

    static let elementName = "StartPAOS"

    init(element: XMLElement) throws(PAOSError) {
        let fields = PAOSFields(element, message: Self.elementName)
        let handles = try fields.all("ConnectionHandle").map { (handle) throws(PAOSError) in
            try ConnectionHandle(element: handle, message: Self.elementName)
        }
        var userAgent: UserAgent?
        if let agent = try fields.optional("UserAgent") {
            let agentFields = PAOSFields(agent, message: Self.elementName)
            userAgent = UserAgent(
                name: try agentFields.text("Name") ?? "", versionMajor: try agentFields.integer("VersionMajor") ?? 0,
                versionMinor: try agentFields.integer("VersionMinor") ?? 0,
                versionSubminor: try agentFields.integer("VersionSubminor") ?? 0)
        }
        let versions = try fields.all("SupportedAPIVersions").map { (version) throws(PAOSError) in
            let versionFields = PAOSFields(version, message: Self.elementName)
            return APIVersion(
                major: try versionFields.requiredInteger("Major"), minor: try versionFields.integer("Minor") ?? 0,
                subminor: try versionFields.integer("Subminor"))
        }
        self.init(
            sessionIdentifier: try fields.requiredText("SessionIdentifier"), connectionHandles: handles,
            userAgent: userAgent, supportedAPIVersions: versions,
            supportedDIDProtocols: fields.all("SupportedDIDProtocols").map(\.trimmedText),
            profile: element.attribute("Profile"))
    }

    var element: XMLElement {
        let ns = PAOSNamespace.iso
        var element = XMLElement(Self.elementName, namespace: ns)
        if let profile { element.attributes.append(XMLAttribute("Profile", value: profile)) }
        element.children.append(.text("SessionIdentifier", namespace: ns, sessionIdentifier))
        element.children += connectionHandles.map { $0.element(typed: true) }
        if let userAgent {
            element.children.append(
                XMLElement(
                    "UserAgent", namespace: ns,
                    children: [
                        .text("Name", namespace: ns, userAgent.name),
                        .text("VersionMajor", namespace: ns, String(userAgent.versionMajor)),
                        .text("VersionMinor", namespace: ns, String(userAgent.versionMinor)),
                        .text("VersionSubminor", namespace: ns, String(userAgent.versionSubminor)),
                    ]))
        }
        for version in supportedAPIVersions {
            var children: [XMLElement] = [
                .text("Major", namespace: ns, String(version.major)),
                .text("Minor", namespace: ns, String(version.minor)),
            ]
            if let subminor = version.subminor { children.append(.text("Subminor", namespace: ns, String(subminor))) }
            element.children.append(XMLElement("SupportedAPIVersions", namespace: ns, children: children))
        }
        element.children += supportedDIDProtocols.map { .text("SupportedDIDProtocols", namespace: ns, $0) }
        return element
    }
}
