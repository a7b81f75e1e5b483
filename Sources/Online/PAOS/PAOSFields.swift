import SmartCard

/// Reads the children of one PAOS element by local name (the namespace varies between servers,
/// docs/protocol.md, "PAOS namespaces"): white space around values is dropped, unknown children are skipped,
/// and an element that may occur once but occurs twice is refused.
struct PAOSFields {
    let element: XMLElement
    /// The message's name, for errors.
    let message: String

    init(_ element: XMLElement, message: String) {
        self.element = element
        self.message = message
    }

    func all(_ name: String) -> [XMLElement] { element.children(named: name) }

    func optional(_ name: String) throws(PAOSError) -> XMLElement? {
        let found = all(name)
        guard found.count <= 1 else { throw .duplicateElement(message: message, element: name) }
        return found.first
    }

    func required(_ name: String) throws(PAOSError) -> XMLElement {
        guard let found = try optional(name) else { throw .missingElement(message: message, element: name) }
        return found
    }

    /// The trimmed text of an optional element (nil when absent).
    func text(_ name: String) throws(PAOSError) -> String? { try optional(name)?.trimmedText }

    /// The trimmed text of a mandatory element, which must not be empty.
    func requiredText(_ name: String) throws(PAOSError) -> String {
        let value = try required(name).trimmedText
        guard !value.isEmpty else { throw .invalidValue(message: message, element: name) }
        return value
    }

    /// The bytes of an optional hexBinary element; nil when it is absent or empty.
    func hex(_ name: String) throws(PAOSError) -> [UInt8]? {
        guard let found = try optional(name) else { return nil }
        let bytes = try decode(found.trimmedText, name)
        return bytes.isEmpty ? nil : bytes
    }

    /// The bytes of a mandatory hexBinary element, which must not be empty.
    func requiredHex(_ name: String) throws(PAOSError) -> [UInt8] {
        guard let bytes = try hex(name) else {
            _ = try required(name)
            throw .invalidValue(message: message, element: name)
        }
        return bytes
    }

    /// The bytes of every element with this name, in order (empty ones refused).
    func hexList(_ name: String) throws(PAOSError) -> [[UInt8]] {
        var list: [[UInt8]] = []
        for found in all(name) {
            let bytes = try decode(found.trimmedText, name)
            guard !bytes.isEmpty else { throw .invalidValue(message: message, element: name) }
            list.append(bytes)
        }
        return list
    }

    /// An optional non-negative decimal number.
    func integer(_ name: String) throws(PAOSError) -> Int? {
        guard let value = try text(name) else { return nil }
        guard value.utf8.count <= 9, !value.isEmpty, value.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let number = Int(value)
        else { throw .invalidValue(message: message, element: name) }
        return number
    }

    func requiredInteger(_ name: String) throws(PAOSError) -> Int {
        guard let number = try integer(name) else { throw .missingElement(message: message, element: name) }
        return number
    }

    /// xsd:hexBinary: an even number of hex digits, either case, nothing else.
    func decode(_ text: String, _ name: String) throws(PAOSError) -> [UInt8] {
        guard text.utf8.count % 2 == 0, text.utf8.allSatisfy(\.isHexDigit), let bytes = [UInt8](hex: text) else {
            throw .invalidHex(message: message, element: name)
        }
        return bytes
    }
}

extension XMLElement {
    /// An element holding bytes as upper-case hexBinary (the canonical form servers send).
    static func hex(_ name: String, namespace: String?, _ bytes: [UInt8]) -> XMLElement {
        .text(name, namespace: namespace, bytes.hexString.uppercased())
    }

    /// The local part of a QName attribute value such as `iso:EAC1InputType`.
    func qualifiedNameSuffix(of attribute: String, namespace: String) -> String? {
        guard let value = self.attribute(attribute, namespace: namespace)?.trimmingXMLWhitespace() else { return nil }
        return value.split(separator: ":").last.map(String.init)
    }
}
