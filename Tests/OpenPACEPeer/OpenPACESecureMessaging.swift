import COpenPACE
import SmartCard

/// Secure messaging (BSI TR-03110-3, F) built from OpenPACE's primitives only: its SSC
/// (`EAC_increment_ssc`), padding (`EAC_add_iso_pad` / `EAC_remove_iso_pad`), encryption with
/// the SSC-derived IV (`EAC_encrypt` / `EAC_decrypt`) and CMAC over SSC || data
/// (`EAC_authenticate`). The data objects are laid out here with `PeerTLV`, not eid's code.
/// Borrows `ctx`, whose encryption context must be set (after PACE step 4).
public struct OpenPACESecureMessaging {
    public let ctx: UnsafeMutablePointer<EAC_CTX>

    public init(ctx: UnsafeMutablePointer<EAC_CTX>) { self.ctx = ctx }

    public struct Failure: Error {
        public init() {}
    }

    // MARK: terminal side

    public func protect(_ command: CommandAPDU) throws -> CommandAPDU {
        try incrementSSC()
        let cla = command.cla | 0x0C
        var objects: [UInt8] = []
        if !command.data.isEmpty { objects += PeerTLV(tag: 0x87, value: [0x01] + (try encrypt(command.data))).encoded }
        if let ne = command.ne {
            let le: [UInt8] =
                ne == 256 ? [0] : ne == 65536 ? [0, 0] : ne < 256 ? [UInt8(ne)] : [UInt8(ne >> 8), UInt8(ne & 0xFF)]
            objects += PeerTLV(tag: 0x97, value: le).encoded
        }
        let tag = try mac(try commandMACInput(header: [cla, command.ins, command.p1, command.p2], objects: objects))
        return try CommandAPDU(
            cla: cla, ins: command.ins, p1: command.p1, p2: command.p2,
            data: objects + PeerTLV(tag: 0x8E, value: tag).encoded, ne: 256)
    }

    public func unprotect(_ response: ResponseAPDU) throws -> ResponseAPDU {
        try incrementSSC()
        let objects = try PeerTLV.parseAll(response.data)
        guard let macObject = objects.last, macObject.tag == 0x8E else { throw Failure() }
        let covered = objects.dropLast()
        guard covered.allSatisfy({ [0x87, 0x99].contains($0.tag) }) else { throw Failure() }
        guard try macMatches(macObject.value, over: try padded(covered.flatMap(\.encoded))) else { throw Failure() }
        guard let sw = covered.first(where: { $0.tag == 0x99 })?.value, sw.count == 2 else { throw Failure() }
        let data = try covered.first(where: { $0.tag == 0x87 }).map { try decrypt(paddingIndicated: $0.value) } ?? []
        return ResponseAPDU(data: data, statusWord: StatusWord(sw1: sw[0], sw2: sw[1]))
    }

    // MARK: card side

    public func unprotect(_ command: CommandAPDU) throws -> CommandAPDU {
        try incrementSSC()
        guard command.cla & 0x0C == 0x0C else { throw Failure() }
        let objects = try PeerTLV.parseAll(command.data)
        guard let macObject = objects.last, macObject.tag == 0x8E else { throw Failure() }
        let covered = objects.dropLast()
        guard covered.allSatisfy({ [0x87, 0x97].contains($0.tag) }) else { throw Failure() }
        let input = try commandMACInput(
            header: [command.cla, command.ins, command.p1, command.p2], objects: covered.flatMap(\.encoded))
        guard try macMatches(macObject.value, over: input) else { throw Failure() }
        let data = try covered.first(where: { $0.tag == 0x87 }).map { try decrypt(paddingIndicated: $0.value) } ?? []
        var ne: Int?
        if let le = covered.first(where: { $0.tag == 0x97 })?.value {
            switch le.count {
            case 1: ne = le[0] == 0 ? 256 : Int(le[0])
            case 2: ne = le == [0, 0] ? 65536 : Int(le[0]) << 8 | Int(le[1])
            default: throw Failure()
            }
        }
        return try CommandAPDU(
            cla: command.cla & ~0x0C, ins: command.ins, p1: command.p1, p2: command.p2, data: data, ne: ne)
    }

    /// [DO'87] DO'99 DO'8E; `corruptMAC` flips a bit of the MAC (a faulty card).
    public func protect(_ response: ResponseAPDU, corruptMAC: Bool = false) throws -> ResponseAPDU {
        try incrementSSC()
        var objects: [UInt8] = []
        if !response.data.isEmpty {
            objects += PeerTLV(tag: 0x87, value: [0x01] + (try encrypt(response.data))).encoded
        }
        objects += PeerTLV(tag: 0x99, value: [response.statusWord.sw1, response.statusWord.sw2]).encoded
        var tag = try mac(try padded(objects))
        if corruptMAC { tag[0] ^= 0x80 }
        return ResponseAPDU(data: objects + PeerTLV(tag: 0x8E, value: tag).encoded, statusWord: response.statusWord)
    }

    // MARK: OpenPACE's primitives

    public func incrementSSC() throws {
        guard EAC_increment_ssc(ctx) == 1 else { throw Failure() }
    }

    public func padded(_ bytes: [UInt8]) throws -> [UInt8] {
        guard let out = try OpenPACE.withBuffer(bytes, { OpenPACE.take(EAC_add_iso_pad(ctx, $0)) }) else {
            throw Failure()
        }
        return out
    }

    /// What a command's MAC covers after the SSC (AusweisApp's `SecureMessaging::createMac`, as
    /// real cards check it): the padded header, then everything padded again only when DO'87 or
    /// DO'97 follows.
    public func commandMACInput(header: [UInt8], objects: [UInt8]) throws -> [UInt8] {
        let paddedHeader = try padded(header)
        return objects.isEmpty ? paddedHeader : try padded(paddedHeader + objects)
    }

    /// MAC over SSC || input (already padded), by OpenPACE.
    public func mac(_ input: [UInt8]) throws -> [UInt8] {
        guard let out = try OpenPACE.withBuffer(input, { OpenPACE.take(EAC_authenticate(ctx, $0)) }) else {
            throw Failure()
        }
        return out
    }

    public func macMatches(_ received: [UInt8], over data: [UInt8]) throws -> Bool {
        let expected = try mac(data)
        guard expected.count == received.count else { return false }
        return expected.withUnsafeBytes { a in
            received.withUnsafeBytes { b in CRYPTO_memcmp(a.baseAddress, b.baseAddress, a.count) == 0 }
        }
    }

    /// E(KSenc, pad(data)) with OpenPACE's IV for the current SSC.
    public func encrypt(_ data: [UInt8]) throws -> [UInt8] {
        let input = try padded(data)
        guard let out = try OpenPACE.withBuffer(input, { OpenPACE.take(EAC_encrypt(ctx, $0)) }) else {
            throw Failure()
        }
        return out
    }

    /// The plain content of a DO'87 value (padding indicator 01 first).
    public func decrypt(paddingIndicated value: [UInt8]) throws -> [UInt8] {
        guard value.count > 1, value[0] == 0x01 else { throw Failure() }
        let plain = try OpenPACE.withBuffer(Array(value.dropFirst())) { c -> [UInt8]? in
            guard let p = EAC_decrypt(ctx, c) else { return nil }
            defer { BUF_MEM_clear_free(p) }
            return OpenPACE.take(EAC_remove_iso_pad(p))
        }
        guard let plain else { throw Failure() }
        return plain
    }
}
