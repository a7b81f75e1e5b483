import FoundationEssentials

/// A PAOS message in its SOAP 1.1 envelope (docs/protocol.md, "PAOS envelope"): the WS-Addressing
/// MessageID and RelatesTo from the header, and the one message in the body. `encoded()` writes
/// the header the client sends (the paos:PAOS block and ReplyTo) on client messages and just the
/// addressing on server messages; `parse` reads what servers send, whatever their prefixes, and
/// ignores the rest of the header (sb:Correlation, wsa:Action, paos:Version variants).
public struct PAOSEnvelope: Equatable, Sendable {
    /// A PAOS message is a few kilobytes (EF.CardSecurity, certificates, data groups); anything
    /// beyond this is refused unread.
    public static let maximumSize = 512 * 1024

    public var messageID: String?
    /// The MessageID of the message this one answers.
    public var relatesTo: String?
    public var message: PAOSMessage

    public init(_ message: PAOSMessage, messageID: String? = PAOSEnvelope.newMessageID(), relatesTo: String? = nil) {
        self.message = message
        self.messageID = messageID
        self.relatesTo = relatesTo
    }

    /// `urn:uuid:` and a fresh random UUID.
    public static func newMessageID() -> String { "urn:uuid:" + UUID().uuidString.lowercased() }

    /// Whether this message answers the one with `messageID` (its RelatesTo is that ID).
    public func answers(messageID: String?) -> Bool { messageID != nil && relatesTo == messageID }

    public static func parse(_ bytes: [UInt8]) throws(PAOSError) -> PAOSEnvelope {
        let root: XMLElement
        do {
            root = try XMLTreeParser(maximumSize: maximumSize).parse(bytes)
        } catch {
            throw .malformedXML(error)
        }
        guard root.name == "Envelope", root.namespace == PAOSNamespace.soap else { throw .notSOAPEnvelope }
        let bodies = root.children.filter { $0.name == "Body" && $0.namespace == PAOSNamespace.soap }
        guard bodies.count == 1, let body = bodies.first else { throw .missingBody }
        guard body.children.count == 1, let content = body.children.first else { throw .bodyNotOneMessage }
        let message = try PAOSMessage(body: content)
        var envelope = PAOSEnvelope(message, messageID: nil)
        let headers = root.children.filter { $0.name == "Header" && $0.namespace == PAOSNamespace.soap }
        guard headers.count <= 1 else { throw .duplicateElement(message: "Envelope", element: "Header") }
        if let header = headers.first {
            let fields = PAOSFields(header, message: "Header")
            envelope.messageID = try fields.text("MessageID").flatMap { $0.isEmpty ? nil : $0 }
            envelope.relatesTo = try fields.text("RelatesTo").flatMap { $0.isEmpty ? nil : $0 }
        }
        return envelope
    }

    public func encoded() -> [UInt8] {
        let soap = PAOSNamespace.soap
        let wsa = PAOSNamespace.wsa
        var header = XMLElement("Header", namespace: soap)
        if message.sender == .client {
            let paos = PAOSNamespace.paos
            header.children.append(
                XMLElement(
                    "PAOS", namespace: paos,
                    attributes: [
                        XMLAttribute("mustUnderstand", namespace: soap, value: "1"),
                        XMLAttribute("actor", namespace: soap, value: "http://schemas.xmlsoap.org/soap/actor/next"),
                    ],
                    children: [
                        .text("Version", namespace: paos, PAOSNamespace.paos),
                        XMLElement(
                            "EndpointReference", namespace: paos,
                            children: [
                                .text("Address", namespace: paos, "http://www.projectliberty.org/2006/01/role/paos"),
                                XMLElement(
                                    "MetaData", namespace: paos,
                                    children: [
                                        .text(
                                            "ServiceType", namespace: paos,
                                            "http://www.bsi.bund.de/ecard/api/1.1/PAOS/GetNextCommand")
                                    ]),
                            ]),
                    ]))
            header.children.append(
                XMLElement(
                    "ReplyTo", namespace: wsa,
                    children: [.text("Address", namespace: wsa, "http://www.projectliberty.org/2006/02/role/paos")]))
        }
        if let relatesTo { header.children.append(.text("RelatesTo", namespace: wsa, relatesTo)) }
        if let messageID { header.children.append(.text("MessageID", namespace: wsa, messageID)) }
        let envelope = XMLElement(
            "Envelope", namespace: soap,
            children: [header, XMLElement("Body", namespace: soap, children: [message.bodyElement])])
        return Array(PAOSNamespace.writer.document(envelope).utf8)
    }
}
