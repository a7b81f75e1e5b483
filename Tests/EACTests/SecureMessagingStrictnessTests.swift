import EAC
import EIDCrypto
import SmartCard
import TestVectors
import Testing

/// The received side of secure messaging reads data objects strictly (TR-03110-3 F; ICAO 9303-11
/// 9.8.5): fixed order, no duplicates, nothing after DO'8E, the MAC over the bytes as received,
/// DO'99 equal to the plain status word. Each MAC here is computed from the primitives over the
/// exact bytes sent, so a rejection is for the stated reason and not a wrong MAC.
@Suite("Secure messaging: strict reading of received data objects")
struct SecureMessagingStrictnessTests {
    static let keys = SessionKeys(
        encryption: [UInt8](repeating: 0x11, count: 16), mac: [UInt8](repeating: 0x22, count: 16))
    /// The SSC the receiver uses for its first message (it starts at 0 and increments first).
    static let ssc1 = [UInt8](repeating: 0, count: 15) + [1]

    static func mac(_ input: [UInt8]) throws -> [UInt8] {
        Array(try CMAC.aes(key: keys.mac, message: ssc1 + input).prefix(8))
    }

    /// A response whose DO'8E authenticates `objects` exactly as given.
    static func response(_ objects: [UInt8], trailing: [UInt8] = [], sw: StatusWord = .success) throws -> ResponseAPDU {
        ResponseAPDU(data: objects + [0x8E, 0x08] + (try mac(Padding.pad(objects))) + trailing, statusWord: sw)
    }

    /// A command whose DO'8E authenticates pad(pad(header) || objects) exactly as given.
    static func command(_ objects: [UInt8], trailing: [UInt8] = []) throws -> CommandAPDU {
        let header: [UInt8] = [0x0C, 0xB0, 0x00, 0x00]
        let mac = try mac(Padding.pad(Padding.pad(header) + objects))
        return try CommandAPDU(
            cla: 0x0C, ins: 0xB0, p1: 0, p2: 0, data: objects + [0x8E, 0x08] + mac + trailing, ne: 256)
    }

    /// DO'87 with one encrypted block for the terminal's first response (SSC 1).
    static func cryptogram() throws -> [UInt8] {
        var card = SecureMessagingSession(keys: keys)
        let protected = try card.protect(ResponseAPDU(data: [1, 2, 3], statusWord: .success))
        return Array(protected.data.prefix(19))  // 87 11 01 || 16 bytes
    }

    @Test func wellFormedResponsesAreAccepted() throws {
        var terminal = SecureMessagingSession(keys: Self.keys)
        #expect(try terminal.unprotect(Self.response([0x99, 0x02, 0x90, 0x00])) == ResponseAPDU(statusWord: .success))
        var withData = SecureMessagingSession(keys: Self.keys)
        let answer = try withData.unprotect(Self.response(Self.cryptogram() + [0x99, 0x02, 0x90, 0x00]))
        #expect(answer == ResponseAPDU(data: [1, 2, 3], statusWord: .success))
    }

    @Test func responseObjectsOutOfOrderOrRepeatedAreMalformed() throws {
        let do99: [UInt8] = [0x99, 0x02, 0x90, 0x00]
        for objects in [
            do99 + (try Self.cryptogram()),  // 99 before 87
            do99 + do99,  // duplicate
            try Self.cryptogram(),  // no DO'99
            [0x97, 0x01, 0x00] + do99,  // a command object in a response
        ] {
            var terminal = SecureMessagingSession(keys: Self.keys)
            #expect(throws: SecureMessagingError.malformedResponse, "\(objects.hexString)") {
                try terminal.unprotect(Self.response(objects))
            }
        }
    }

    @Test func bytesAfterDO8EAreMalformed() throws {
        for trailing in [[UInt8]]([[0x99, 0x02, 0x90, 0x00], [0x00, 0x00], [0x8E, 0x00]]) {
            var terminal = SecureMessagingSession(keys: Self.keys)
            #expect(throws: SecureMessagingError.malformedResponse) {
                try terminal.unprotect(Self.response([0x99, 0x02, 0x90, 0x00], trailing: trailing))
            }
            var card = SecureMessagingSession(keys: Self.keys)
            #expect(throws: SecureMessagingError.malformedCommand) {
                try card.unprotect(Self.command([0x97, 0x01, 0x00], trailing: trailing))
            }
        }
    }

    @Test func protectedStatusWordMustEqualThePlainOne() throws {
        var terminal = SecureMessagingSession(keys: Self.keys)
        let swapped = try Self.response([0x99, 0x02, 0x90, 0x00], sw: .fileNotFound)
        #expect(throws: SecureMessagingError.statusWordMismatch(protected: .success, plain: .fileNotFound)) {
            try terminal.unprotect(swapped)
        }
    }

    /// DO'99 written with a long-form length (99 81 02 …) is valid BER; the MAC covers it as sent.
    @Test func longFormLengthIsMACedAsReceived() throws {
        let longForm: [UInt8] = [0x99, 0x81, 0x02, 0x90, 0x00]
        var terminal = SecureMessagingSession(keys: Self.keys)
        #expect(try terminal.unprotect(Self.response(longForm)).statusWord == .success)
        // A MAC over the minimal re-encoding (99 02 …) does not authenticate the received bytes.
        let normalisedMAC = try Self.mac(Padding.pad([0x99, 0x02, 0x90, 0x00]))
        var strict = SecureMessagingSession(keys: Self.keys)
        #expect(throws: SecureMessagingError.macMismatch) {
            try strict.unprotect(ResponseAPDU(data: longForm + [0x8E, 0x08] + normalisedMAC, statusWord: .success))
        }
        // The card side likewise, for DO'97 with a long-form length.
        var card = SecureMessagingSession(keys: Self.keys)
        #expect(try card.unprotect(Self.command([0x97, 0x81, 0x01, 0x08])).ne == 8)
    }

    @Test func commandObjectsOutOfOrderOrRepeatedAreMalformed() throws {
        let do97: [UInt8] = [0x97, 0x01, 0x00]
        let do87 = [0x87, 0x11, 0x01] + [UInt8](repeating: 0x33, count: 16)
        for objects in [do97 + do87, do97 + do97, do87 + do87, [0x99, 0x02, 0x90, 0x00]] {
            var card = SecureMessagingSession(keys: Self.keys)
            #expect(throws: SecureMessagingError.malformedCommand, "\(objects.hexString)") {
                try card.unprotect(Self.command(objects))
            }
        }
    }
}
