import EIDCrypto
import SmartCard

/// The state and rules of AES secure messaging (BSI TR-03110-3, appendix F; ICAO 9303-11,
/// 9.8), for both ends: the terminal protects commands and unprotects responses, the card
/// unprotects commands and protects responses, with the same encryption, MAC and SSC code.
///
/// - SSC: 16 bytes, incremented before each command and before each response (F.3).
/// - Encryption: AES-CBC with IV = AES-ECB(KSenc, SSC) over the ISO/IEC 9797-1 method 2 padded
///   data, carried in DO'87 with padding indicator 01.
/// - MAC: AES-CMAC(KSmac, SSC || M)[:8] in DO'8E, where M for a command is pad(header), followed
///   by pad(DO'87 || DO'97) only when the command has one of them (a header-only command such as
///   RESET RETRY COUNTER with P1 03 is MACed over SSC || pad(header), with no second padding
///   block, as real cards and AusweisApp do), and M for a response is pad(DO'87 || DO'99).
///   DO'97 carries Le, DO'99 the status word.
///
/// Received data objects are read strictly, in the order TR-03110-3 F and ICAO 9303-11 9.8.5
/// give: a command is [87] [97] 8E, a response [87] 99 8E; a missing DO'8E or DO'99, any other
/// object, a duplicate, a different order or bytes after DO'8E make it malformed. The MAC is
/// checked over the received bytes before DO'8E exactly as they came (a long-form length is
/// not re-encoded), and a response's DO'99 must equal its plain status word.
public struct SecureMessagingSession: Sendable {
    public private(set) var keys: SessionKeys
    /// The send sequence counter, 16 bytes.
    public private(set) var ssc: [UInt8]

    /// A session starting at `ssc` (after PACE and after Chip Authentication: zero).
    public init(keys: SessionKeys, ssc: [UInt8] = [UInt8](repeating: 0, count: 16)) {
        self.keys = keys
        self.ssc = ssc
    }

    // MARK: terminal side

    /// The protected form of `command` (SSC incremented first). The result uses extended
    /// length when the command does, or when the protected data exceeds 255 bytes.
    public mutating func protect(_ command: CommandAPDU) throws -> CommandAPDU {
        incrementSSC()
        let cla = command.cla | 0x0C
        var dos: [UInt8] = []
        if !command.data.isEmpty { dos += TLV(tag: 0x87, value: [0x01] + (try encrypt(command.data))).bytes }
        if let ne = command.ne {
            let le: [UInt8] =
                ne <= 256 ? [UInt8(ne & 0xFF)] : ne == 65536 ? [0, 0] : [UInt8(ne >> 8), UInt8(ne & 0xFF)]
            dos += TLV(tag: 0x97, value: le).bytes
        }
        let mac = try self.mac(Self.commandMACInput(header: [cla, command.ins, command.p1, command.p2], objects: dos))
        let data = dos + TLV(tag: 0x8E, value: mac).bytes
        guard data.count <= CommandAPDU.maxExtendedData else { throw SecureMessagingError.commandTooLong }
        let extended = command.isExtendedLength || data.count > CommandAPDU.maxShortData
        return try CommandAPDU(
            cla: cla, ins: command.ins, p1: command.p1, p2: command.p2, data: data,
            ne: extended ? CommandAPDU.maxExtendedNe : CommandAPDU.maxShortNe)
    }

    /// The plain response inside a protected `response` (SSC incremented first). The MAC is
    /// checked, in constant time, before anything in the response is decrypted or used; the
    /// returned status word is the MAC-protected one of DO'99.
    public mutating func unprotect(_ response: ResponseAPDU) throws -> ResponseAPDU {
        incrementSSC()
        guard !response.data.isEmpty else { throw SecureMessagingError.responseNotProtected(response.statusWord) }
        guard let objects = ProtectedObjects(response.data, order: [0x87, 0x99]), let sw = objects[0x99], sw.count == 2
        else { throw SecureMessagingError.malformedResponse }
        guard ConstantTime.equals(objects.mac, try mac(Padding.pad(objects.macCovered))) else {
            throw SecureMessagingError.macMismatch
        }
        let protectedStatus = StatusWord(sw1: sw[0], sw2: sw[1])
        guard protectedStatus == response.statusWord else {
            throw SecureMessagingError.statusWordMismatch(protected: protectedStatus, plain: response.statusWord)
        }
        var data: [UInt8] = []
        if let cryptogram = objects[0x87] { data = try decrypt(paddingIndicated: cryptogram) }
        return ResponseAPDU(data: data, statusWord: protectedStatus)
    }

    // MARK: card side

    /// The plain command inside a protected `command` (SSC incremented first), MAC checked
    /// before decryption. A card answers a failure with 6987 / 6988 unprotected and ends SM.
    public mutating func unprotect(_ command: CommandAPDU) throws -> CommandAPDU {
        incrementSSC()
        guard command.cla & 0x0C == 0x0C else { throw SecureMessagingError.malformedCommand }
        guard let objects = ProtectedObjects(command.data, order: [0x87, 0x97]) else {
            throw SecureMessagingError.malformedCommand
        }
        let header = [command.cla, command.ins, command.p1, command.p2]
        let input = Self.commandMACInput(header: header, objects: objects.macCovered)
        guard ConstantTime.equals(objects.mac, try mac(input)) else {
            throw SecureMessagingError.macMismatch
        }
        var ne: Int?
        if let le = objects[0x97] {
            switch le.count {
            case 1: ne = le[0] == 0 ? 256 : Int(le[0])
            case 2: ne = le == [0, 0] ? 65536 : Int(le[0]) << 8 | Int(le[1])
            default: throw SecureMessagingError.malformedCommand
            }
        }
        var data: [UInt8] = []
        if let cryptogram = objects[0x87] { data = try decrypt(paddingIndicated: cryptogram) }
        guard data.count <= CommandAPDU.maxExtendedData else { throw SecureMessagingError.malformedCommand }
        return try CommandAPDU(
            cla: command.cla & ~0x0C, ins: command.ins, p1: command.p1, p2: command.p2, data: data, ne: ne)
    }

    /// The protected form of the card's `response` (SSC incremented first):
    /// [DO'87] DO'99 DO'8E, with the plain status word outside.
    public mutating func protect(_ response: ResponseAPDU) throws -> ResponseAPDU {
        incrementSSC()
        var dos: [UInt8] = []
        if !response.data.isEmpty { dos += TLV(tag: 0x87, value: [0x01] + (try encrypt(response.data))).bytes }
        dos += TLV(tag: 0x99, value: [response.statusWord.sw1, response.statusWord.sw2]).bytes
        let mac = try self.mac(Padding.pad(dos))
        return ResponseAPDU(data: dos + TLV(tag: 0x8E, value: mac).bytes, statusWord: response.statusWord)
    }

    // MARK: shared

    /// Starts over with new keys and SSC 0 (after Chip Authentication, TR-03110-3 F.3).
    /// The old keys are wiped.
    public mutating func restart(keys: SessionKeys) {
        if self.keys !== keys { self.keys.wipe() }
        self.keys = keys
        ssc = [UInt8](repeating: 0, count: ssc.count)
    }

    mutating func incrementSSC() {
        for i in stride(from: ssc.count - 1, through: 0, by: -1) {
            ssc[i] &+= 1
            if ssc[i] != 0 { break }
        }
    }

    /// E(KSenc, pad(data)) with IV = E(KSenc, SSC). The padded plaintext (a new PIN, say) is
    /// wiped once encrypted.
    func encrypt(_ data: [UInt8]) throws -> [UInt8] {
        var padded = Padding.pad(data)
        defer { Cleanse.zero(&padded) }
        return try keys.withEncryptionKey { key in
            let iv = try AES.encryptBlock(key: key, block: ssc)
            return try AES.encryptCBC(key: key, iv: iv, data: padded)
        }
    }

    /// Decrypts the value of DO'87 (padding indicator 01, then whole blocks) and unpads it.
    func decrypt(paddingIndicated value: [UInt8]) throws -> [UInt8] {
        guard value.count > 1, value[0] == 0x01, (value.count - 1) % AES.blockSize == 0 else {
            throw SecureMessagingError.decryptionFailed
        }
        var plain = try keys.withEncryptionKey { key in
            let iv = try AES.encryptBlock(key: key, block: ssc)
            return try AES.decryptCBC(key: key, iv: iv, data: Array(value.dropFirst()))
        }
        // The padded plaintext is wiped; only the unpadded copy goes to the caller.
        defer { Cleanse.zero(&plain) }
        do { return try Padding.unpad(plain) } catch { throw SecureMessagingError.decryptionFailed }
    }

    /// What a command's MAC covers after the SSC: pad(header), then pad(DO'87 || DO'97) when
    /// there is either. A header-only command gets no second padding block.
    static func commandMACInput(header: [UInt8], objects: [UInt8]) -> [UInt8] {
        let paddedHeader = Padding.pad(header)
        return objects.isEmpty ? paddedHeader : Padding.pad(paddedHeader + objects)
    }

    /// CMAC(KSmac, SSC || input)[:8]; `input` is already padded to whole blocks.
    func mac(_ input: [UInt8]) throws -> [UInt8] {
        try keys.withMACKey { key in Array(try CMAC.aes(key: key, message: ssc + input).prefix(8)) }
    }
}
