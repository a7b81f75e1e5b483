import CLibXML2
import SmartCard

#if canImport(Glibc)
import Glibc
#endif

/// Reads untrusted XML (TcTokens, PAOS messages) into `XMLElement` values through libxml2, with
/// everything that reaches outside the document switched off: a document type declaration
/// stops the parser at once (no DTD, so no entity is declared, loaded or expanded), no network,
/// no XInclude, and libxml2's own limits stay on. The input is bounded before libxml2 sees it,
/// and the tree after.
///
/// Secrets: libxml2 allocates through functions that zero every block before freeing it (the
/// document's copy, the tree, their regrowths), and the text of an element named in
/// `secretElements` (the TcToken's PSK) never becomes a Swift `String`: it is copied from the
/// tree into a `LockedBuffer`, lent to the caller, zeroed there and in the tree; in the
/// `XMLElement` the element's text is empty.
public struct XMLTreeParser: Sendable {
    public var maximumSize: Int
    public var maximumDepth: Int
    public var maximumElements: Int
    /// Local names of the elements whose text is a secret.
    public var secretElements: Set<String>

    public init(
        maximumSize: Int, maximumDepth: Int = 32, maximumElements: Int = 4096, secretElements: Set<String> = []
    ) {
        self.maximumSize = maximumSize
        self.maximumDepth = maximumDepth
        self.maximumElements = maximumElements
        self.secretElements = secretElements
    }

    /// libxml2 wants its memory functions, then xmlInitParser, once before parsing from several threads.
    private static let initialised: Bool = {
        _ = eid_xml_install_wiping_memory()
        xmlInitParser()
        return true
    }()

    /// Whether libxml2 zeroes the memory it frees (after the first parser is used).
    public static var wipesFreedMemory: Bool {
        _ = initialised
        return eid_xml_wipes_freed_memory() != 0
    }

    /// The root element of `bytes`.
    public func parse(_ bytes: [UInt8]) throws(XMLError) -> XMLElement {
        try parse(bytes) { _, _ in }
    }

    /// The root element of `bytes`; the text of each element named in `secretElements` goes to
    /// `receive` (its local name, its bytes: zeroed after the call) instead of into the tree.
    public func parse(_ bytes: [UInt8], secrets receive: (String, UnsafeMutableBufferPointer<UInt8>) -> Void)
        throws(XMLError) -> XMLElement
    {
        guard bytes.count <= maximumSize, bytes.count <= Int(Int32.max) else {
            throw .tooLarge(limit: maximumSize)
        }
        guard !bytes.isEmpty else { throw .empty }
        if let problem = eid_xml_load() { throw .parserMissing(String(cString: problem)) }
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
        return try element(root, depth: 1, count: &count, secrets: receive)
    }

    private func element(
        _ node: xmlNodePtr, depth: Int, count: inout Int, secrets: (String, UnsafeMutableBufferPointer<UInt8>) -> Void
    ) throws(XMLError) -> XMLElement {
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
        let secret = secretElements.contains(result.name)
        if secret { Self.lendText(of: node, as: result.name, to: secrets) }
        var child = node.pointee.children
        while let current = child {
            switch current.pointee.type {
            case XML_ELEMENT_NODE:
                result.children.append(try element(current, depth: depth + 1, count: &count, secrets: secrets))
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if !secret, let content = current.pointee.content { result.text += String(cString: content) }
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

    /// The text directly inside `node`, copied into a locked buffer and lent to `receive`; then
    /// zeroed there and in libxml2's text nodes.
    private static func lendText(
        of node: xmlNodePtr, as name: String, to receive: (String, UnsafeMutableBufferPointer<UInt8>) -> Void
    ) {
        var texts: [UnsafeMutablePointer<xmlChar>] = []
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_TEXT_NODE || current.pointee.type == XML_CDATA_SECTION_NODE,
                let content = current.pointee.content
            {
                texts.append(content)
            }
            child = current.pointee.next
        }
        let length = texts.reduce(0) { $0 + strlen($1) }
        let buffer = LockedBuffer(count: length)
        var offset = 0
        for text in texts {
            let n = strlen(text)
            for i in 0..<n { buffer.bytes[offset + i] = text[i] }
            offset += n
            // A text libxml2 interned in its dictionary (only ones of up to 3 bytes) is shared:
            // the dictionary's block is zeroed when it is freed with the document.
            if xmlDictOwns(node.pointee.doc?.pointee.dict, text) != 1 { explicit_bzero(text, n) }
        }
        receive(name, buffer.bytes)
        buffer.wipe()
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
