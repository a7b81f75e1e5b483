import EAC
import EIDCrypto
import SmartCard
import TestVectors
import Testing

@Suite("Secure messaging (TR-03110-3 F, ICAO 9303-11 9.8)")
struct SecureMessagingTests {
    struct Exchange {
        let plainCommand: CommandAPDU
        let protectedCommand: [UInt8]
        let protectedResponse: [UInt8]
        let plainResponseData: [UInt8]
    }

    static func gmrtd() throws -> (keys: SessionKeys, ssc: [UInt8], exchanges: [Exchange], finalSSC: [UInt8]) {
        let trace = try #require(Fixture.values("secure_messaging")["gmrtd_aes256_trace"] as? [String: Any])
        let keys = SessionKeys(
            encryption: try hex(trace["ks_enc"] as! String), mac: try hex(trace["ks_mac"] as! String))
        let exchanges = try (trace["exchanges"] as! [[String: String]]).map {
            Exchange(
                plainCommand: try CommandAPDU(bytes: hex($0["plain_cmd"]!)),
                protectedCommand: try hex($0["protected_cmd"]!),
                protectedResponse: try hex($0["protected_rsp"]!), plainResponseData: try hex($0["plain_rsp_data"]!))
        }
        return (keys, try hex(trace["ssc_initial"] as! String), exchanges, try hex(trace["ssc_final"] as! String))
    }

    @Test func gmrtdAES256TraceTerminalSide() throws {
        let t = try Self.gmrtd()
        var session = SecureMessagingSession(keys: t.keys, ssc: t.ssc)
        for (i, e) in t.exchanges.enumerated() {
            #expect(try session.protect(e.plainCommand).bytes == e.protectedCommand, "command \(i)")
            let response = try session.unprotect(ResponseAPDU(bytes: e.protectedResponse))
            #expect(response.data == e.plainResponseData, "response \(i)")
            #expect(response.statusWord == .success)
        }
        #expect(session.ssc == t.finalSSC)
    }

    @Test func gmrtdAES256TraceCardSide() throws {
        let t = try Self.gmrtd()
        var card = SecureMessagingSession(keys: t.keys, ssc: t.ssc)
        for (i, e) in t.exchanges.enumerated() {
            #expect(try card.unprotect(CommandAPDU(bytes: e.protectedCommand)) == e.plainCommand, "command \(i)")
            let protected = try card.protect(ResponseAPDU(data: e.plainResponseData, statusWord: .success))
            #expect(protected.bytes == e.protectedResponse, "response \(i)")
        }
        #expect(card.ssc == t.finalSSC)
    }

    @Test func gmrtdTraceThroughTheChannel() throws {
        let t = try Self.gmrtd()
        let card = ScriptedChannel(
            t.exchanges.map { .init(command: $0.protectedCommand, response: $0.protectedResponse) })
        let channel = SecureMessaging(wrapping: card, keys: t.keys, ssc: t.ssc)
        for e in t.exchanges {
            let response = try channel.transmit(e.plainCommand)
            #expect(response.data == e.plainResponseData)
            #expect(response.isSuccess)
        }
        #expect(card.isFinished)
        #expect(channel.ssc == t.finalSSC)
        #expect(!channel.isClosed)
    }

    @Test func bsiWorkedExampleEncryptAndMAC() throws {
        let keysHex = try Fixture.hexValues("secure_messaging", key: "bsi_worked_example_aes128")
        let enc = try Fixture.hexValues("secure_messaging", key: "bsi_worked_example_aes128", "encrypt")
        let mac = try Fixture.hexValues("secure_messaging", key: "bsi_worked_example_aes128", "mac")
        let keys = SessionKeys(encryption: try keysHex.bytes("ks_enc"), mac: try keysHex.bytes("ks_mac"))
        // Command at SSC 1: MSE:Set DST with the CAR as plaintext; DO'87 carries the published cryptogram.
        var terminal = SecureMessagingSession(keys: keys)
        let command = try CommandAPDU(ins: 0x22, p1: 0x81, p2: 0xB6, data: try enc.bytes("plaintext"))
        let protected = try terminal.protect(command)
        #expect(Array(protected.data.prefix(19)).hexString == "871101" + enc["ciphertext"]!)
        #expect(terminal.ssc.hexString == enc["ssc"])
        // Response at SSC 2: DO'99 9000 with the published MAC.
        var card = SecureMessagingSession(keys: keys)
        #expect(try card.unprotect(protected) == command)
        let response = try card.protect(ResponseAPDU(statusWord: .success))
        #expect(card.ssc.hexString == mac["ssc"])
        #expect(response.bytes.hexString == mac["data"]! + "8e08" + mac["mac"]! + "9000")
        #expect(try terminal.unprotect(response) == ResponseAPDU(statusWord: .success))
    }

    /// RESET RETRY COUNTER with P1 03 (unblock with the PUK) has no data and no Le: no DO'87, no
    /// DO'97. Its MAC covers SSC || pad(header) and nothing more. (An earlier eid padded the
    /// padded header a second time, and its software card checked the same way; an independent
    /// nPA emulator answered 6988.) The expected MAC is computed here from the primitives.
    @Test func headerOnlyCommandIsMACedOverThePaddedHeaderAlone() throws {
        let keysHex = try Fixture.hexValues("secure_messaging", key: "bsi_worked_example_aes128")
        let keys = SessionKeys(encryption: try keysHex.bytes("ks_enc"), mac: try keysHex.bytes("ks_mac"))
        var terminal = SecureMessagingSession(keys: keys)
        let unblock = try CommandAPDU(ins: 0x2C, p1: 0x03, p2: 0x03)
        let protected = try terminal.protect(unblock)
        let ssc = [UInt8](repeating: 0, count: 15) + [1]
        let header: [UInt8] = [0x0C, 0x2C, 0x03, 0x03, 0x80] + [UInt8](repeating: 0, count: 11)
        let expected = Array(try CMAC.aes(key: keys.mac, message: ssc + header).prefix(8))
        #expect(protected.data == [0x8E, 0x08] + expected)
        #expect(Array(protected.bytes.prefix(5)) == [0x0C, 0x2C, 0x03, 0x03, 0x0A])
        // The card side accepts exactly that and nothing with the extra padding block.
        var card = SecureMessagingSession(keys: keys)
        #expect(try card.unprotect(protected) == unblock)
        var strict = SecureMessagingSession(keys: keys)
        let doublePadded = Array(try CMAC.aes(key: keys.mac, message: ssc + Padding.pad(header)).prefix(8))
        let wrong = try CommandAPDU(
            cla: 0x0C, ins: 0x2C, p1: 0x03, p2: 0x03, data: [0x8E, 0x08] + doublePadded, ne: 256)
        #expect(throws: SecureMessagingError.macMismatch) { try strict.unprotect(wrong) }
    }

    /// The send sequence counter is one 16-byte number: the increment carries from byte to byte. A
    /// session that sends more than 255 commands (reading a large file in pieces) needs the carry;
    /// the vectors above never cross a byte. The MACs are computed here from the primitives over the
    /// counter an independent increment gives: …00FF → …0100 for the command, …0101 for the
    /// response; and a counter of all FF bytes wraps to zero.
    @Test func theCounterCarriesIntoTheNextByte() throws {
        let keysHex = try Fixture.hexValues("secure_messaging", key: "bsi_worked_example_aes128")
        let keys = SessionKeys(encryption: try keysHex.bytes("ks_enc"), mac: try keysHex.bytes("ks_mac"))
        let start = [UInt8](repeating: 0, count: 15) + [0xFF]
        var terminal = SecureMessagingSession(keys: keys, ssc: start)
        let protected = try terminal.protect(CommandAPDU(ins: 0x2C, p1: 0x03, p2: 0x03))
        let commandSSC = [UInt8](repeating: 0, count: 14) + [0x01, 0x00]
        let header: [UInt8] = [0x0C, 0x2C, 0x03, 0x03, 0x80] + [UInt8](repeating: 0, count: 11)
        let expected = Array(try CMAC.aes(key: keys.mac, message: commandSSC + header).prefix(8))
        #expect(protected.data == [0x8E, 0x08] + expected, "the command is MACed over SSC …0100")

        let responseSSC = [UInt8](repeating: 0, count: 14) + [0x01, 0x01]
        let dos: [UInt8] = [0x99, 0x02, 0x90, 0x00]
        let mac = Array(try CMAC.aes(key: keys.mac, message: responseSSC + Padding.pad(dos)).prefix(8))
        let response = ResponseAPDU(data: dos + [0x8E, 0x08] + mac, statusWord: .success)
        #expect(try terminal.unprotect(response) == ResponseAPDU(statusWord: .success), "the card's MAC at …0101")

        var wrapping = SecureMessagingSession(keys: keys, ssc: [UInt8](repeating: 0xFF, count: 16))
        let wrapped = try wrapping.protect(CommandAPDU(ins: 0x2C, p1: 0x03, p2: 0x03))
        let zero = [UInt8](repeating: 0, count: 16)
        #expect(wrapped.data == [0x8E, 0x08] + Array(try CMAC.aes(key: keys.mac, message: zero + header).prefix(8)))
    }

    /// With a DO'97 (Le only) the padded header and the object are padded again as a whole.
    @Test func commandWithLeOnlyPadsHeaderAndObjects() throws {
        let keysHex = try Fixture.hexValues("secure_messaging", key: "bsi_worked_example_aes128")
        let keys = SessionKeys(encryption: try keysHex.bytes("ks_enc"), mac: try keysHex.bytes("ks_mac"))
        var terminal = SecureMessagingSession(keys: keys)
        let protected = try terminal.protect(CommandAPDU(ins: 0x84, p1: 0, p2: 0, ne: 8))
        let ssc = [UInt8](repeating: 0, count: 15) + [1]
        let header: [UInt8] = [0x0C, 0x84, 0x00, 0x00, 0x80] + [UInt8](repeating: 0, count: 11)
        let input = ssc + Padding.pad(header + [0x97, 0x01, 0x08])
        #expect(
            protected.data == [0x97, 0x01, 0x08, 0x8E, 0x08]
                + Array(try CMAC.aes(key: keys.mac, message: input).prefix(8)))
    }

    /// A channel over the first gmrtd exchange whose response is replaced by `response`.
    func firstExchange(answering response: [UInt8]) throws -> (SecureMessaging, CommandAPDU, Error?) {
        let t = try Self.gmrtd()
        let e = t.exchanges[0]
        let card = ScriptedChannel([.init(command: e.protectedCommand, response: response)])
        let channel = SecureMessaging(wrapping: card, keys: t.keys, ssc: t.ssc)
        do {
            _ = try channel.transmit(e.plainCommand)
            return (channel, e.plainCommand, nil)
        } catch {
            return (channel, e.plainCommand, error)
        }
    }

    @Test func badResponseMACClosesTheChannel() throws {
        var response = try Self.gmrtd().exchanges[0].protectedResponse
        response[response.count - 3] ^= 0x01  // last MAC byte
        let (channel, command, error) = try firstExchange(answering: response)
        #expect(error as? SecureMessagingError == .macMismatch)
        #expect(channel.isClosed)
        #expect(throws: SecureMessagingError.channelClosed) { try channel.transmit(command) }
    }

    @Test func tamperedStatusWordInDO99FailsTheMAC() throws {
        var response = try Self.gmrtd().exchanges[0].protectedResponse
        response[2] = 0x6A  // DO'99 90 00 -> 6A 00
        let (channel, _, error) = try firstExchange(answering: response)
        #expect(error as? SecureMessagingError == .macMismatch)
        #expect(channel.isClosed)
    }

    @Test func unprotectedAnswerClosesTheChannel() throws {
        let (channel, _, error) = try firstExchange(answering: [0x69, 0x88])
        #expect(error as? SecureMessagingError == .responseNotProtected(.smDataObjectsIncorrect))
        #expect(channel.isClosed)
        for bad in [
            "9000", "99029000" + "9000", "8e08000000000000000099029000" + "9000", "990290008e0800" + "9000", "ff9000",
        ] {
            let (c, _, e) = try firstExchange(answering: try hex(bad))
            #expect(e is SecureMessagingError, "\(bad)")
            #expect(c.isClosed, "\(bad)")
        }
    }

    @Test func macIsCheckedBeforeDecryption() throws {
        let t = try Self.gmrtd()
        let responseSSC = try hex("00000000000000000000000000000022")
        // A cryptogram of unpadded data, authenticated correctly (computed here independently).
        let iv = try AES.encryptBlock(key: t.keys.encryption, block: responseSSC)
        let cryptogram = try AES.encryptCBC(key: t.keys.encryption, iv: iv, data: [UInt8](repeating: 0x41, count: 16))
        let dos = TLV(tag: 0x87, value: [0x01] + cryptogram).bytes + TLV(tag: 0x99, value: [0x90, 0x00]).bytes
        let mac = Array(try CMAC.aes(key: t.keys.mac, message: Padding.pad(responseSSC + dos)).prefix(8))
        let (_, _, error) = try firstExchange(answering: dos + TLV(tag: 0x8E, value: mac).bytes + [0x90, 0x00])
        #expect(error as? SecureMessagingError == .decryptionFailed)
        // The same response with a wrong MAC fails on the MAC, before decryption is attempted.
        var wrong = mac
        wrong[0] ^= 0xFF
        let (_, _, error2) = try firstExchange(answering: dos + TLV(tag: 0x8E, value: wrong).bytes + [0x90, 0x00])
        #expect(error2 as? SecureMessagingError == .macMismatch)
    }

    @Test func cardSideRejectsBadCommands() throws {
        let t = try Self.gmrtd()
        var protected = t.exchanges[0].protectedCommand
        protected[protected.count - 2] ^= 0x01  // last MAC byte
        var card = SecureMessagingSession(keys: t.keys, ssc: t.ssc)
        #expect(throws: SecureMessagingError.macMismatch) { try card.unprotect(CommandAPDU(bytes: protected)) }
        var card2 = SecureMessagingSession(keys: t.keys, ssc: t.ssc)
        #expect(throws: SecureMessagingError.malformedCommand) { try card2.unprotect(t.exchanges[0].plainCommand) }
        var card3 = SecureMessagingSession(keys: t.keys, ssc: t.ssc)
        let noMAC = try CommandAPDU(cla: 0x0C, ins: 0xB0, p1: 0, p2: 0, data: [0x97, 0x01, 0x04], ne: 256)
        #expect(throws: SecureMessagingError.malformedCommand) { try card3.unprotect(noMAC) }
    }

    @Test func extendedLengthRoundTrip() throws {
        let keys = SessionKeys(encryption: try SecureRandom.bytes(16), mac: try SecureRandom.bytes(16))
        var terminal = SecureMessagingSession(keys: keys)
        var card = SecureMessagingSession(keys: keys)
        let cases = [
            try CommandAPDU(ins: 0x2A, p1: 0x00, p2: 0xBE, data: [UInt8](repeating: 0x5A, count: 300)),
            try CommandAPDU(ins: 0xB0, p1: 0x00, p2: 0x00, ne: 65536),
            try CommandAPDU(ins: 0xB0, p1: 0x00, p2: 0x00, ne: 1000),
            // Short inside, long once protected:
            try CommandAPDU(ins: 0xD6, p1: 0x00, p2: 0x00, data: [UInt8](repeating: 1, count: 230)),
            try CommandAPDU(ins: 0x84, p1: 0x00, p2: 0x00, ne: 8),
            try CommandAPDU(ins: 0x22, p1: 0x41, p2: 0xA4, data: [0x80, 0x01, 0x02]),
        ]
        for command in cases {
            let protected = try terminal.protect(command)
            let needsExtended = command.isExtendedLength || protected.data.count > 255
            #expect(protected.isExtendedLength == needsExtended)
            #expect(protected.ne == (needsExtended ? 65536 : 256))
            // Over the wire and back.
            let received = try card.unprotect(CommandAPDU(bytes: protected.bytes))
            #expect(received == command)
            let answer = ResponseAPDU(data: [UInt8](repeating: 7, count: 500), statusWord: .success)
            let protectedAnswer = try card.protect(answer)
            #expect(try terminal.unprotect(protectedAnswer) == answer)
        }
    }

    @Test func extendedCommandOnAShortChannelIsRefused() throws {
        let keys = SessionKeys(encryption: [UInt8](repeating: 1, count: 16), mac: [UInt8](repeating: 2, count: 16))
        let channel = SecureMessaging(wrapping: ScriptedChannel([ScriptedChannel.Step]()), keys: keys)
        #expect(throws: SecureMessagingError.commandTooLong) {
            try channel.transmit(CommandAPDU(ins: 0xD6, p1: 0, p2: 0, data: [UInt8](repeating: 0, count: 400)))
        }
        #expect(channel.isClosed)
    }
}
