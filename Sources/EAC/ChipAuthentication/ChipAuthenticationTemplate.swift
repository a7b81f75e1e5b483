import SmartCard

/// The data of MSE:Set AT for Chip Authentication (TR-03110-3, B.14.1): `80` the protocol,
/// `84` the key id (optional, a minimal unsigned integer).
public struct ChipAuthenticationTemplate: Equatable, Sendable {
    public var `protocol`: OID
    public var keyID: Int?

    public init(protocol: OID, keyID: Int?) {
        self.protocol = `protocol`
        self.keyID = keyID
    }

    /// Reads the command data; throws `ChipAuthenticationError.malformedTemplate` for anything
    /// but 80 [84].
    public init(data: [UInt8]) throws {
        var offset = 0
        var objects: [TLV] = []
        do { while offset < data.count { objects.append(try TLV.read(data, at: &offset)) } } catch {
            throw ChipAuthenticationError.malformedTemplate
        }
        guard let first = objects.first, first.tag == 0x80, let oid = try? OID(derValue: first.value) else {
            throw ChipAuthenticationError.malformedTemplate
        }
        self.protocol = oid
        switch objects.count {
        case 1: keyID = nil
        case 2:
            let value = objects[1].value
            guard objects[1].tag == 0x84, (1...4).contains(value.count) else {
                throw ChipAuthenticationError.malformedTemplate
            }
            keyID = value.reduce(0) { $0 << 8 | Int($1) }
        default: throw ChipAuthenticationError.malformedTemplate
        }
    }
}
