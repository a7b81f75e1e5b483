/// dss:Result (docs/protocol.md, "dss:Result"): ResultMajor, ResultMinor when there is one, and an
/// optional ResultMessage with its language. Every client response starts with it, and it is
/// all a StartPAOSResponse holds.
public struct DSSResult: Equatable, Sendable {
    public var major: ECardAPIResult.Major
    public var minor: Minor?
    public var message: String?
    /// The `xml:lang` of the message.
    public var messageLanguage: String?

    /// A ResultMinor: one of the table's codes, or a URI the table does not have, kept as sent
    /// (servers may use codes of other profiles).
    public enum Minor: Equatable, Sendable {
        case known(ECardAPIResult.Minor)
        case unrecognized(String)

        public var uri: String {
            switch self {
            case .known(let minor): return minor.rawValue
            case .unrecognized(let uri): return uri
            }
        }
    }

    public init(
        major: ECardAPIResult.Major, minor: Minor? = nil, message: String? = nil, messageLanguage: String? = nil
    ) {
        self.major = major
        self.minor = minor
        self.message = message
        self.messageLanguage = messageLanguage
    }

    public init(_ result: ECardAPIResult, message: String? = nil, messageLanguage: String? = "en") {
        self.init(
            major: result.major, minor: result.minor.map { .known($0) }, message: message,
            messageLanguage: message == nil ? nil : messageLanguage)
    }

    public static let ok = DSSResult(major: .ok)

    /// The result as the SDK and the workflows carry it (an unrecognised minor is dropped).
    public var ecardAPIResult: ECardAPIResult {
        guard case .known(let known) = minor else { return ECardAPIResult(major: major) }
        return ECardAPIResult(major: major, minor: known)
    }

    static let elementName = "Result"
    /// URIs longer than this are not kept.
    static let maximumURILength = 512

    init(element: XMLElement, message name: String) throws(PAOSError) {
        let fields = PAOSFields(element, message: name)
        let majorURI = try fields.requiredText("ResultMajor")
        guard let major = ECardAPIResult.Major(rawValue: majorURI) else { throw .unknownResultMajor }
        self.init(major: major)
        if let minorURI = try fields.text("ResultMinor"), !minorURI.isEmpty {
            guard minorURI.utf8.count <= Self.maximumURILength,
                !minorURI.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F })
            else { throw .invalidValue(message: name, element: "ResultMinor") }
            minor = ECardAPIResult.Minor(uri: minorURI).map { .known($0) } ?? .unrecognized(minorURI)
        }
        if let messageElement = try fields.optional("ResultMessage") {
            message = messageElement.trimmedText
            messageLanguage = messageElement.attribute("lang", namespace: PAOSNamespace.xml)
        }
    }

    var element: XMLElement {
        var result = XMLElement(Self.elementName, namespace: PAOSNamespace.dss)
        result.children.append(.text("ResultMajor", namespace: PAOSNamespace.dss, major.rawValue))
        if let minor { result.children.append(.text("ResultMinor", namespace: PAOSNamespace.dss, minor.uri)) }
        if let message {
            var element = XMLElement.text("ResultMessage", namespace: PAOSNamespace.dss, message)
            if let messageLanguage {
                element.attributes.append(XMLAttribute("lang", namespace: PAOSNamespace.xml, value: messageLanguage))
            }
            result.children.append(element)
        }
        return result
    }
}
