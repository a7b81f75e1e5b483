import CardAccess

/// The commands of PACE (BSI TR-03110-3, B.1 and D.3; ICAO 9303-11, 4.4.4), for the terminal
/// to build and the software card to read.
public enum PACECommand {
    /// MSE:Set AT for PACE: 00 22 C1 A4 { 80 protocol, 83 password reference, [7F4C CHAT] }.
    /// The card answers 9000, or 63Cx when the PIN has x attempts left (63C1: suspended, CAN
    /// needed first), or 6283 when the eID function is deactivated; callers read those.
    public static func setAuthenticationTemplate(
        protocol oid: ObjectIdentifier, passwordType: PACEPasswordType, chat: [UInt8]? = nil
    ) -> CommandAPDU {
        var data = TLV(tag: 0x80, value: oid.derValue).bytes + TLV(tag: 0x83, value: [passwordType.rawValue]).bytes
        if let chat { data += chat }
        return CommandAPDU(cla: 0x00, ins: 0x22, p1: 0xC1, p2: 0xA4, data: data)
    }

    /// General Authenticate with dynamic authentication data; steps 1-3 are sent as part of a
    /// command chain (CLA 10), step 4 ends it (CLA 00). Le = 00.
    public static func generalAuthenticate(_ data: DynamicAuthenticationData, isLast: Bool) -> CommandAPDU {
        CommandAPDU(cla: isLast ? 0x00 : 0x10, ins: 0x86, p1: 0x00, p2: 0x00, data: data.bytes, ne: 256)
    }

    /// The content of a received MSE:Set AT for PACE (card side).
    public struct SetAuthenticationTemplate: Equatable, Sendable {
        public var `protocol`: ObjectIdentifier
        public var passwordType: PACEPasswordType
        /// The complete 7F4C CHAT object, if sent.
        public var chat: [UInt8]?
        /// Any other data objects (e.g. 67 auxiliary data, 91 ephemeral key), as sent.
        public var otherObjects: [TLV]

        /// Reads MSE:Set AT (INS 22, P1P2 C1A4); anything else throws `CardError.malformedCommand`.
        public init(command: CommandAPDU) throws {
            guard command.ins == 0x22, command.p1 == 0xC1, command.p2 == 0xA4 else {
                throw CardError.malformedCommand("not MSE:Set AT for authentication")
            }
            let objects: [TLV]
            do { objects = try TLV.parseAll(command.data) } catch { throw CardError.malformedCommand("bad TLV") }
            guard let oidValue = objects.first(where: { $0.tag == 0x80 })?.value,
                let oid = try? ObjectIdentifier(derValue: oidValue)
            else { throw CardError.malformedCommand("no protocol (80)") }
            guard let ref = objects.first(where: { $0.tag == 0x83 })?.value, ref.count == 1,
                let type = PACEPasswordType(rawValue: ref[0])
            else { throw CardError.malformedCommand("no password reference (83)") }
            self.protocol = oid
            passwordType = type
            chat = objects.first { $0.tag == 0x7F4C }?.bytes
            otherObjects = objects.filter { ![0x80, 0x83, 0x7F4C].contains($0.tag) }
        }
    }
}
