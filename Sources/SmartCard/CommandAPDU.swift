/// A command APDU (ISO/IEC 7816-4, section 5.1). Short or extended length is decided in one
/// place, `bytes`: extended when the data is longer than 255 bytes or Ne is above 256. Every
/// command is encodable: the initializer throws `CommandAPDUError` for data longer than 65535
/// bytes or an Ne outside 1...65536, and data and Ne cannot be changed afterwards.
public struct CommandAPDU: Equatable, Sendable, CustomStringConvertible {
    public var cla: UInt8
    public var ins: UInt8
    public var p1: UInt8
    public var p2: UInt8
    public private(set) var data: [UInt8]
    /// Ne, the number of response bytes expected; nil for none. 256 in short form and 65536 in
    /// extended form mean "as many as there are" (Le = 00 / 0000).
    public private(set) var ne: Int?

    public static let maxShortNe = 256
    public static let maxExtendedNe = 65536
    public static let maxShortData = 255
    public static let maxExtendedData = 65535

    public init(cla: UInt8 = 0x00, ins: UInt8, p1: UInt8, p2: UInt8, data: [UInt8] = [], ne: Int? = nil)
        throws(CommandAPDUError)
    {
        guard data.count <= CommandAPDU.maxExtendedData else { throw .dataTooLong(count: data.count) }
        if let ne, ne < 1 || ne > CommandAPDU.maxExtendedNe { throw .expectedLengthOutOfRange(ne) }
        self.cla = cla
        self.ins = ins
        self.p1 = p1
        self.p2 = p2
        self.data = data
        self.ne = ne
    }

    /// Overwrites the data field with zeros in place, its length unchanged: for a command that
    /// carried a secret (a new PIN) once it has been sent.
    public mutating func zeroData() { Secret.zero(&data) }

    /// Whether this command needs the extended length encoding.
    public var isExtendedLength: Bool { data.count > CommandAPDU.maxShortData || (ne ?? 0) > CommandAPDU.maxShortNe }

    /// Whether CLA announces more commands of a chain (bit 5, 0x10).
    public var isChained: Bool { cla & 0x10 != 0 }

    /// Whether CLA marks the command as secure-messaging protected (bits 3-4, 0x0C).
    public var isSecureMessaging: Bool { cla & 0x0C == 0x0C }

    /// The encoded command, cases 1-4 in short or extended form.
    public var bytes: [UInt8] {
        var out: [UInt8] = [cla, ins, p1, p2]
        if isExtendedLength {
            if !data.isEmpty {
                out += [0x00, UInt8(data.count >> 8), UInt8(data.count & 0xFF)]
                out += data
            }
            if let ne {
                let le = ne == CommandAPDU.maxExtendedNe ? 0 : ne
                if data.isEmpty { out.append(0x00) }
                out += [UInt8(le >> 8), UInt8(le & 0xFF)]
            }
        } else {
            if !data.isEmpty {
                out.append(UInt8(data.count))
                out += data
            }
            if let ne { out.append(ne == CommandAPDU.maxShortNe ? 0 : UInt8(ne)) }
        }
        return out
    }

    /// Parses an encoded command (what a card receives). Any length field that disagrees with the
    /// number of bytes present is an error.
    public init(bytes b: [UInt8]) throws {
        guard b.count >= 4 else { throw CardError.malformedCommand("\(b.count) byte(s), need at least 4") }
        cla = b[0]
        ins = b[1]
        p1 = b[2]
        p2 = b[3]
        data = []
        ne = nil
        let body = Array(b[4...])
        switch body.count {
        case 0:
            return
        case 1:
            ne = body[0] == 0 ? 256 : Int(body[0])
            return
        default:
            break
        }
        if body[0] != 0 {
            // Short form: Lc data [Le]
            let lc = Int(body[0])
            if body.count == 1 + lc {
                data = Array(body[1...])
            } else if body.count == 2 + lc {
                data = Array(body[1..<(1 + lc)])
                ne = body[1 + lc] == 0 ? 256 : Int(body[1 + lc])
            } else {
                throw CardError.malformedCommand("Lc \(lc) does not match \(body.count - 1) byte(s) of body")
            }
            return
        }
        // Extended form: 00 Lc1 Lc2 data [Le1 Le2] or 00 Le1 Le2
        guard body.count >= 3 else { throw CardError.malformedCommand("truncated extended length") }
        let n = Int(body[1]) << 8 | Int(body[2])
        if body.count == 3 {
            ne = n == 0 ? 65536 : n
            return
        }
        guard n > 0 else { throw CardError.malformedCommand("extended Lc of 0") }
        if body.count == 3 + n {
            data = Array(body[3...])
        } else if body.count == 5 + n {
            data = Array(body[3..<(3 + n)])
            let le = Int(body[3 + n]) << 8 | Int(body[4 + n])
            ne = le == 0 ? 65536 : le
        } else {
            throw CardError.malformedCommand("extended Lc \(n) does not match \(body.count - 3) byte(s) of body")
        }
    }

    public var description: String { bytes.hexString }
}
