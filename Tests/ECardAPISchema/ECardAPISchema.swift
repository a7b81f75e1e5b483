import CXMLSchema
import FoundationEssentials
import SmartCard

/// The eCard-API framework's XML schemas (TR-03112, as Open eCard ships them) and the SOAP 1.1
/// envelope's, compiled once by libxml2: an independent reader for the PAOS messages eid sends
/// (Schemas/README.md names every file's source). `problems(inEnvelope:)` checks a whole SOAP
/// envelope: the envelope against the SOAP schema, and every element in its Body strictly against
/// the eCard-API schemas (an element they do not declare is a problem, not skipped).
public final class ECardAPISchema: @unchecked Sendable {
    /// The schemas, or why they did not compile.
    public static let shared: Result<ECardAPISchema, SchemaLoadError> = {
        do throws(SchemaLoadError) { return .success(try ECardAPISchema()) } catch { return .failure(error) }
    }()

    /// The schema set did not compile (or a file is missing): libxml2's messages.
    public struct SchemaLoadError: Error, CustomStringConvertible {
        public var messages: [String]
        public var description: String { "the eCard-API schemas did not compile: " + messages.joined(separator: "; ") }
    }

    /// The fixtures (Schemas/, with the driver PAOSMessages.xsd), read from the source tree: not a
    /// resource bundle, whose accessor imports Foundation, and Foundation's ICU headers clash with
    /// libxml2's in one module.
    public static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Schemas", isDirectory: true)

    private let schema: xmlSchemaPtr
    /// One validation at a time: the tests need no speed here.
    private let lock = Locked(())

    private init() throws(SchemaLoadError) {
        xmlInitParser()
        let path = Self.directory.appendingPathComponent("PAOSMessages.xsd").path
        guard let parser = xmlSchemaNewParserCtxt(path) else { throw SchemaLoadError(messages: ["no parser context"]) }
        defer { xmlSchemaFreeParserCtxt(parser) }
        let collector = ErrorCollector()
        xmlSchemaSetParserStructuredErrors(
            parser, ErrorCollector.callback, Unmanaged.passUnretained(collector).toOpaque())
        guard let schema = xmlSchemaParse(parser) else { throw SchemaLoadError(messages: collector.messages) }
        // A warning here is an import libxml2 skipped: some type would be missing.
        guard collector.messages.isEmpty else {
            xmlSchemaFree(schema)
            throw SchemaLoadError(messages: collector.messages)
        }
        self.schema = schema
    }

    deinit { xmlSchemaFree(schema) }

    /// What is wrong with `envelope` (a whole SOAP message as sent): not well-formed, not a SOAP
    /// 1.1 envelope, or a Body element the eCard-API schemas do not declare or that breaks them.
    /// Empty: it validates.
    public func problems(inEnvelope envelope: [UInt8]) -> [String] {
        lock.withLock { _ in validate(envelope) }
    }

    private func validate(_ envelope: [UInt8]) -> [String] {
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        let document = envelope.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.flatMap { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    xmlReadMemory($0, Int32(buffer.count), "envelope.xml", nil, options)
                }
            }
        }
        guard let document else { return ["not well-formed XML"] }
        defer { xmlFreeDoc(document) }
        guard let context = xmlSchemaNewValidCtxt(schema) else { return ["no validation context"] }
        defer { xmlSchemaFreeValidCtxt(context) }
        let collector = ErrorCollector()
        xmlSchemaSetValidStructuredErrors(
            context, ErrorCollector.callback, Unmanaged.passUnretained(collector).toOpaque())
        var problems: [String] = []
        if xmlSchemaValidateDoc(context, document) != 0 {
            problems += collector.take(orElse: "the envelope does not validate")
        }
        guard let root = xmlDocGetRootElement(document), Self.isSOAP(root, "Envelope") else {
            return problems + ["the root is not a SOAP 1.1 Envelope"]
        }
        let bodies = Self.elements(in: root).filter { Self.isSOAP($0, "Body") }
        guard bodies.count == 1, let body = bodies.first else { return problems + ["not exactly one SOAP Body"] }
        let contents = Self.elements(in: body)
        if contents.isEmpty { problems.append("the SOAP Body is empty") }
        // The SOAP schema takes the Body's content laxly; each element must also validate on its
        // own, which needs a global declaration of it.
        for element in contents where xmlSchemaValidateOneElement(context, element) != 0 {
            problems += collector.take(orElse: "the Body's \(Self.name(of: element)) does not validate")
        }
        return problems
    }

    private static let soap = "http://schemas.xmlsoap.org/soap/envelope/"

    private static func isSOAP(_ node: xmlNodePtr, _ name: String) -> Bool {
        self.name(of: node) == name && node.pointee.ns.flatMap { $0.pointee.href }.map { String(cString: $0) } == soap
    }

    private static func name(of node: xmlNodePtr) -> String { node.pointee.name.map { String(cString: $0) } ?? "" }

    private static func elements(in node: xmlNodePtr) -> [xmlNodePtr] {
        var found: [xmlNodePtr] = []
        var child = node.pointee.children
        while let next = child {
            if next.pointee.type == XML_ELEMENT_NODE { found.append(next) }
            child = next.pointee.next
        }
        return found
    }
}

/// libxml2's structured errors of one compilation or validation, as "line N: message".
private final class ErrorCollector {
    private(set) var messages: [String] = []

    /// Takes the messages collected so far (or `fallback` when libxml2 said nothing).
    func take(orElse fallback: String) -> [String] {
        defer { messages = [] }
        return messages.isEmpty ? [fallback] : messages
    }

    static let callback: xmlStructuredErrorFunc = { context, error in
        guard let context, let error else { return }
        let collector = Unmanaged<ErrorCollector>.fromOpaque(context).takeUnretainedValue()
        let text = error.pointee.message.map { String(cString: $0) } ?? "(no message)"
        let line = error.pointee.line
        let trimmed = String(text.reversed().drop { $0.isWhitespace }.reversed())
        collector.messages.append((line > 0 ? "line \(line): " : "") + trimmed)
    }
}
