import CardAccess

// Interim: replaced by the EAC target's SecurityInfos and MSE:Set AT when it lands.

public enum PACEPassword: UInt8, Sendable {
    case mrz = 1, can = 2, pin = 3, puk = 4
}

enum MSESetAT {
    static func pace(protocolOID: [UInt8], password: PACEPassword) -> CommandAPDU {
        let data = TLV(tag: 0x80, value: protocolOID).bytes + TLV(tag: 0x83, value: [password.rawValue]).bytes
        return CommandAPDU(ins: 0x22, p1: 0xC1, p2: 0xA4, data: data)
    }
}

enum CardAccessPACE {
    static let pacePrefix: [UInt8] = [0x04, 0x00, 0x7F, 0x00, 0x07, 0x02, 0x02, 0x04]

    static func protocolOID(in content: [UInt8]) -> [UInt8]? {
        guard let set = try? TLV.parse(content), set.tag == 0x31, let infos = try? set.children() else { return nil }
        for info in infos where info.tag == 0x30 {
            guard let fields = try? info.children(), let oid = fields.first, oid.tag == 0x06 else { continue }
            if oid.value.starts(with: pacePrefix) && oid.value.count > pacePrefix.count { return oid.value }
        }
        return nil
    }
}

public final class EIDCardSession: PINManagementCard {
    let channel: CardChannel
    let paceProtocol: [UInt8]
    public init(channel: CardChannel, paceProtocol: [UInt8]) {
        self.channel = channel
        self.paceProtocol = paceProtocol
    }
    public func establishPACE(_ password: PACEPassword, secret: Secret) throws -> PACEResult {
        throw CardError.transportFailed("PACE is not built yet")
    }
    public func changePIN(to newPIN: Secret) throws -> StatusWord { .instructionNotSupported }
    public func unblockPIN() throws -> StatusWord { .instructionNotSupported }
}
