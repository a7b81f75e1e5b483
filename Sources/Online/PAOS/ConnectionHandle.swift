/// iso:ConnectionHandleType, as StartPAOS and DIDAuthenticate carry it: which card application
/// in which slot. Clients send CardApplication and SlotHandle only; the rest is read when given.
public struct ConnectionHandle: Equatable, Sendable {
    public var contextHandle: [UInt8]?
    public var ifdName: String?
    public var slotIndex: Int?
    public var cardApplication: [UInt8]?
    public var slotHandle: [UInt8]?

    /// The eID application's AID (`E8 07 04 00 7F 00 07 03 02`).
    public static let eIDApplication: [UInt8] = [0xE8, 0x07, 0x04, 0x00, 0x7F, 0x00, 0x07, 0x03, 0x02]

    public init(
        contextHandle: [UInt8]? = nil, ifdName: String? = nil, slotIndex: Int? = nil, cardApplication: [UInt8]? = nil,
        slotHandle: [UInt8]? = nil
    ) {
        self.contextHandle = contextHandle
        self.ifdName = ifdName
        self.slotIndex = slotIndex
        self.cardApplication = cardApplication
        self.slotHandle = slotHandle
    }

    /// What AusweisApp sends: the eID application in slot handle `00`.
    public static let eID = ConnectionHandle(cardApplication: eIDApplication, slotHandle: [0x00])

    init(element: XMLElement, message: String) throws(PAOSError) {
        let fields = PAOSFields(element, message: message)
        self.init(
            contextHandle: try fields.hex("ContextHandle"), ifdName: try fields.text("IFDName"),
            slotIndex: try fields.integer("SlotIndex"), cardApplication: try fields.hex("CardApplication"),
            slotHandle: try fields.hex("SlotHandle"))
    }

    func element(typed: Bool) -> XMLElement {
        let ns = PAOSNamespace.iso
        var element = XMLElement("ConnectionHandle", namespace: ns)
        if typed {
            element.attributes.append(
                XMLAttribute("type", namespace: PAOSNamespace.xsi, value: "iso:ConnectionHandleType"))
        }
        if let contextHandle { element.children.append(.hex("ContextHandle", namespace: ns, contextHandle)) }
        if let ifdName { element.children.append(.text("IFDName", namespace: ns, ifdName)) }
        if let slotIndex { element.children.append(.text("SlotIndex", namespace: ns, String(slotIndex))) }
        if let cardApplication { element.children.append(.hex("CardApplication", namespace: ns, cardApplication)) }
        if let slotHandle { element.children.append(.hex("SlotHandle", namespace: ns, slotHandle)) }
        return element
    }
}
