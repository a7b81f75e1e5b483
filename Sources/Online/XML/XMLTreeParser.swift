import CLibXML2

/// Reads untrusted XML (TcTokens, PAOS messages) into `XMLElement` values through libxml2, with
/// everything that reaches outside the document switched off: a document type declaration
/// stops the parser at once (no DTD, so no entity is declared, loaded or expanded), no network,
/// no XInclude, and libxml2's own limits stay on. The input is bounded before libxml2 sees it,
/// and the tree after.
public struct XMLTreeParser: Sendable {
    public var maximumSize: Int
    public var maximumDepth: Int
    public var maximumElements: Int

    public init(maximumSize: Int, maximumDepth: Int = 32, maximumElements: Int = 4096) {
        self.maximumSize = maximumSize
        self.maximumDepth = maximumDepth
        self.maximumElements = maximumElements
    }

    /// libxml2 wants xmlInitParser once before parsing from several threads.
    private static let initialised: Bool = {
        xmlInitParser()
        return true
    }()

    /// The root element of `bytes`.
    public func parse(_ bytes: [UInt8]) throws(XMLError) -> XMLElement {
        guard bytes.count <= maximumSize, bytes.count <= Int(Int32.max) else {
            throw .tooLarge(limit: maximumSize)
        }
        guard !bytes.isEmpty else { throw .empty }
        _ = Self.initialised
        var doctype: Int32 = 0
        var line: Int32 = 0
        let document = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                eid_xml_read($0, Int32(buffer.count), &doctype, &line)
            }
        }
        guard let document else {
            throw doctype != 0 ? .documentTypeDeclared : .notWellFormed(line: Int(line))
        }
        defer { xmlFreeDoc(document) }
        // The shim stops at <!DOCTYPE already; a document that has a DTD anyway is refused too.
        guard document.pointee.intSubset == nil, document.pointee.extSubset == nil else {
            throw .documentTypeDeclared
        }
        guard let root = xmlDocGetRootElement(document) else { throw .notWellFormed(line: 0) }
        var count = 0
        return try element(root, depth: 1, count: &count)
    }

    private func element(_ node: xmlNodePtr, depth: Int, count: inout Int) throws(XMLError) -> XMLElement {
        guard depth <= maximumDepth else { throw .tooDeep(limit: maximumDepth) }
        count += 1
        guard count <= maximumElements else { throw .tooManyElements(limit: maximumElements) }
        var result = XMLElement(Self.string(node.pointee.name), namespace: Self.namespace(node.pointee.ns))
        var attribute = node.pointee.properties
        while let current = attribute {
            var value = ""
            var child = current.pointee.children
            while let text = child {
                if let content = text.pointee.content { value += String(cString: content) }
                child = text.pointee.next
            }
            result.attributes.append(
                XMLAttribute(
                    Self.string(current.pointee.name), namespace: Self.namespace(current.pointee.ns), value: value))
            attribute = current.pointee.next
        }
        var child = node.pointee.children
        while let current = child {
            switch current.pointee.type {
            case XML_ELEMENT_NODE:
                result.children.append(try element(current, depth: depth + 1, count: &count))
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = current.pointee.content { result.text += String(cString: content) }
            case XML_ENTITY_REF_NODE, XML_ENTITY_NODE, XML_ENTITY_DECL, XML_DTD_NODE:
                // Cannot happen without a DTD; refused rather than silently dropped.
                throw .documentTypeDeclared
            default:
                break  // comments, processing instructions
            }
            child = current.pointee.next
        }
        return result
    }

    private static func string(_ chars: UnsafePointer<xmlChar>?) -> String {
        guard let chars else { return "" }
        return String(cString: chars)
    }

    private static func namespace(_ ns: xmlNsPtr?) -> String? {
        guard let href = ns?.pointee.href else { return nil }
        return String(cString: href)
    }
}
