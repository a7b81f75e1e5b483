import SmartCard

/// The data of MSE:Set AT for Terminal Authentication (TR-03110-3, B.14.1): `80` the TA
/// algorithm of the terminal certificate's key, `83` the terminal certificate's CHR, `67` the
/// authenticated auxiliary data (optional, verbatim), `91` Comp(PK_PCD), the compressed
/// ephemeral public key the terminal will use for Chip Authentication.
public struct TerminalAuthenticationTemplate: Equatable, Sendable {
    public var algorithm: TAAlgorithm
    public var holderReference: String
    /// The whole `67` object as the terminal received it, or nil.
    public var auxiliaryData: [UInt8]?
    public var compressedEphemeralKey: [UInt8]

    public init(
        algorithm: TAAlgorithm, holderReference: String, auxiliaryData: [UInt8]?, compressedEphemeralKey: [UInt8]
    ) {
        self.algorithm = algorithm
        self.holderReference = holderReference
        self.auxiliaryData = auxiliaryData
        self.compressedEphemeralKey = compressedEphemeralKey
    }

    /// Reads the command data the card receives: 80, 83, [67], 91 in this order, each once.
    /// Anything else (other objects, a broken TLV, an unknown algorithm) throws
    /// `TerminalAuthenticationError.malformedTemplate`.
    public init(data: [UInt8]) throws {
        var offset = 0
        // Each object with its bytes as received: the signature covers the 67 object verbatim.
        var objects: [(tlv: TLV, raw: [UInt8])] = []
        do {
            while offset < data.count {
                let start = offset
                let tlv = try TLV.read(data, at: &offset)
                objects.append((tlv, Array(data[start..<offset])))
            }
        } catch { throw TerminalAuthenticationError.malformedTemplate }
        var index = 0
        var auxRaw: [UInt8]?
        func take(_ tag: UInt32) -> TLV? {
            guard index < objects.count, objects[index].tlv.tag == tag else { return nil }
            index += 1
            if tag == AuthenticatedAuxiliaryData.tag { auxRaw = objects[index - 1].raw }
            return objects[index - 1].tlv
        }
        guard let oid = take(0x80), let algorithm = (try? OID(derValue: oid.value)).flatMap(TAAlgorithm.init),
            let chr = take(0x83), !chr.value.isEmpty, chr.value.allSatisfy({ $0 >= 0x20 && $0 < 0x7F })
        else { throw TerminalAuthenticationError.malformedTemplate }
        _ = take(AuthenticatedAuxiliaryData.tag)
        guard let key = take(0x91), !key.value.isEmpty, index == objects.count else {
            throw TerminalAuthenticationError.malformedTemplate
        }
        self.algorithm = algorithm
        self.holderReference = String(decoding: chr.value, as: UTF8.self)
        self.auxiliaryData = auxRaw
        self.compressedEphemeralKey = key.value
    }

    /// The command data.
    public var encoded: [UInt8] {
        var data = TLV(tag: 0x80, value: algorithm.objectIdentifier.derValue).bytes
        data += TLV(tag: 0x83, value: Array(holderReference.utf8)).bytes
        if let auxiliaryData { data += auxiliaryData }
        data += TLV(tag: 0x91, value: compressedEphemeralKey).bytes
        return data
    }
}
