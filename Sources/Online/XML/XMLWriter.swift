/// Writes `XMLElement` trees as UTF-8 XML text. Namespaces get the prefixes given here,
/// declared once on the root; an element in a namespace without a prefix declares it as the
/// default namespace on itself. Text and attribute values are escaped so that a parser gives
/// back exactly the same value; characters XML 1.0 cannot carry at all (C0 controls other than
/// tab, LF and CR, U+FFFE, U+FFFF) are written as U+FFFD.
public struct XMLWriter: Sendable {
    public struct Prefix: Sendable {
        public var prefix: String
        public var namespace: String
        public init(_ prefix: String, _ namespace: String) {
            self.prefix = prefix
            self.namespace = namespace
        }
    }

    public var prefixes: [Prefix]
    /// Namespaces whose elements are written unprefixed, with a default-namespace declaration
    /// where one starts (as AusweisApp writes PAOS bodies); their prefix stays declared for
    /// qualified names in attribute values (`xsi:type="iso:EAC1InputType"`).
    public var unprefixedNamespaces: Set<String>

    public init(prefixes: [Prefix], unprefixedNamespaces: Set<String> = []) {
        self.prefixes = prefixes
        self.unprefixedNamespaces = unprefixedNamespaces
    }

    /// The whole document, with the XML declaration.
    public func document(_ root: XMLElement) -> String {
        var out = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        write(root, isRoot: true, defaultNamespace: nil, into: &out)
        out += "\n"
        return out
    }

    private func prefix(of namespace: String) -> String? {
        prefixes.first { $0.namespace == namespace }?.prefix
    }

    private func write(_ element: XMLElement, isRoot: Bool, defaultNamespace: String?, into out: inout String) {
        var declarations = ""
        var scopeDefault = defaultNamespace
        let qualifiedName: String
        if let namespace = element.namespace {
            if !unprefixedNamespaces.contains(namespace), let p = prefix(of: namespace) {
                qualifiedName = p + ":" + element.name
            } else {
                qualifiedName = element.name
                if defaultNamespace != namespace {
                    declarations += #" xmlns=""# + Self.escapeAttribute(namespace) + #"""#
                    scopeDefault = namespace
                }
            }
        } else {
            qualifiedName = element.name
            if defaultNamespace != nil {
                declarations += #" xmlns="""#
                scopeDefault = nil
            }
        }
        out += "<" + qualifiedName
        if isRoot {
            for p in prefixes { out += " xmlns:" + p.prefix + #"=""# + Self.escapeAttribute(p.namespace) + #"""# }
        }
        out += declarations
        for attribute in element.attributes {
            var name = attribute.name
            if let namespace = attribute.namespace {
                if namespace == "http://www.w3.org/XML/1998/namespace" {
                    name = "xml:" + name
                } else if let p = prefix(of: namespace) {
                    name = p + ":" + name
                }
            }
            out += " " + name + #"=""# + Self.escapeAttribute(attribute.value) + #"""#
        }
        if element.children.isEmpty && element.text.isEmpty {
            out += "/>"
            return
        }
        out += ">"
        out += Self.escapeText(element.text)
        for child in element.children { write(child, isRoot: false, defaultNamespace: scopeDefault, into: &out) }
        out += "</" + qualifiedName + ">"
    }

    static func escapeText(_ text: String) -> String {
        escape(text, also: [">": "&gt;"])
    }

    /// An attribute value also keeps its quote and its tab and line feed (which a parser would
    /// otherwise normalise to spaces).
    static func escapeAttribute(_ text: String) -> String {
        escape(text, also: ["\"": "&quot;", "\t": "&#9;", "\n": "&#10;"])
    }

    /// `&`, `<` and CR (which a parser would otherwise drop) as references in any content, the
    /// `extra` scalars as given, everything else as `representable` makes it.
    private static func escape(_ text: String, also extra: [Unicode.Scalar: String]) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case "\r": out += "&#13;"
            default:
                if let reference = extra[scalar] {
                    out += reference
                } else {
                    out.unicodeScalars.append(representable(scalar))
                }
            }
        }
        return out
    }

    private static func representable(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: return scalar
        case 0x00..<0x20, 0xFFFE, 0xFFFF: return "\u{FFFD}"
        default: return scalar
        }
    }
}
