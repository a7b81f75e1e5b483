/// Transmit (server; docs/protocol.md, "PAOS messages"): command APDUs, already protected by the server's
/// own secure messaging, for the client to send to the card unchanged and in order, each with
/// the status words that let the batch go on.
public struct Transmit: Equatable, Sendable {
    /// An echo of the client's slot handle (any value).
    public var slotHandle: [UInt8]?
    public var inputAPDUs: [InputAPDUInfo]
    public var requestID: String?

    public struct InputAPDUInfo: Equatable, Sendable {
        /// The complete command APDU.
        public var inputAPDU: [UInt8]
        /// 1–2 bytes each; a response goes on when its status word starts with one of them, and
        /// with none given any status word does.
        public var acceptableStatusCodes: [[UInt8]]

        public init(_ inputAPDU: [UInt8], acceptableStatusCodes: [[UInt8]] = []) {
            self.inputAPDU = inputAPDU
            self.acceptableStatusCodes = acceptableStatusCodes
        }

        /// Whether the batch goes on after this response (its last two bytes are the status word).
        public func accepts(response: [UInt8]) -> Bool {
            guard !acceptableStatusCodes.isEmpty else { return true }
            guard response.count >= 2 else { return false }
            let statusWord = Array(response.suffix(2))
            return acceptableStatusCodes.contains { statusWord.starts(with: $0) }
        }
    }

    public init(slotHandle: [UInt8]? = [0x00], inputAPDUs: [InputAPDUInfo], requestID: String? = nil) {
        self.slotHandle = slotHandle
        self.inputAPDUs = inputAPDUs
        self.requestID = requestID
    }

    static let elementName = "Transmit"
    /// A command APDU has at least CLA INS P1 P2.
    static let minimumAPDULength = 4

    init(element: XMLElement) throws(PAOSError) {
        let fields = PAOSFields(element, message: Self.elementName)
        let infos = fields.all("InputAPDUInfo")
        guard !infos.isEmpty else { throw .missingElement(message: Self.elementName, element: "InputAPDUInfo") }
        inputAPDUs = try infos.map { (info) throws(PAOSError) in
            let infoFields = PAOSFields(info, message: Self.elementName)
            let apdu = try infoFields.requiredHex("InputAPDU")
            guard apdu.count >= Self.minimumAPDULength else {
                throw .invalidValue(message: Self.elementName, element: "InputAPDU")
            }
            let codes = try infoFields.hexList("AcceptableStatusCode")
            guard codes.allSatisfy({ $0.count <= 2 }) else {
                throw .invalidValue(message: Self.elementName, element: "AcceptableStatusCode")
            }
            return InputAPDUInfo(apdu, acceptableStatusCodes: codes)
        }
        slotHandle = try fields.hex("SlotHandle")
        requestID = element.attribute("RequestID")
    }

    var element: XMLElement {
        let ns = PAOSNamespace.iso
        var element = XMLElement(Self.elementName, namespace: ns)
        if let requestID { element.attributes.append(XMLAttribute("RequestID", value: requestID)) }
        if let slotHandle { element.children.append(.hex("SlotHandle", namespace: ns, slotHandle)) }
        for info in inputAPDUs {
            var child = XMLElement(
                "InputAPDUInfo", namespace: ns, children: [.hex("InputAPDU", namespace: ns, info.inputAPDU)])
            child.children += info.acceptableStatusCodes.map { .hex("AcceptableStatusCode", namespace: ns, $0) }
            element.children.append(child)
        }
        return element
    }
}
