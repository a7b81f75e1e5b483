/// One XML element as eid reads and writes them: its namespace URI and local name (never the
/// prefix, which senders choose freely), its attributes, its child elements and its character
/// data. Comments and processing instructions are not kept; mixed content is reduced to the
/// concatenated text directly inside the element.
public struct XMLElement: Equatable, Sendable {
    public var namespace: String?
    public var name: String
    public var attributes: [XMLAttribute]
    public var children: [XMLElement]
    /// The character data directly inside the element (text and CDATA, in order), untrimmed.
    public var text: String

    public init(
        _ name: String, namespace: String? = nil, attributes: [XMLAttribute] = [], children: [XMLElement] = [],
        text: String = ""
    ) {
        self.namespace = namespace
        self.name = name
        self.attributes = attributes
        self.children = children
        self.text = text
    }

    /// An element holding only text.
    public static func text(_ name: String, namespace: String?, _ value: String) -> XMLElement {
        XMLElement(name, namespace: namespace, text: value)
    }

    /// The children with this local name, in any namespace.
    public func children(named name: String) -> [XMLElement] { children.filter { $0.name == name } }

    /// The value of the attribute with this local name (and namespace, when given).
    public func attribute(_ name: String, namespace: String? = nil) -> String? {
        attributes.first { $0.name == name && (namespace == nil || $0.namespace == namespace) }?.value
    }

    /// The text with XML white space (space, tab, CR, LF) removed at both ends.
    public var trimmedText: String { text.trimmingXMLWhitespace() }
}

/// An attribute: namespace URI (nil for an unprefixed attribute), local name, value.
public struct XMLAttribute: Equatable, Sendable {
    public var namespace: String?
    public var name: String
    public var value: String

    public init(_ name: String, namespace: String? = nil, value: String) {
        self.namespace = namespace
        self.name = name
        self.value = value
    }
}

extension String {
    /// The string without XML white space (#x20, #x9, #xD, #xA) at either end.
    func trimmingXMLWhitespace() -> String {
        let scalars = unicodeScalars
        let isSpace: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
            let last = scalars.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}
