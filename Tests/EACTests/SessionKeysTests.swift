import EAC
import EIDCrypto
import SmartCard
import Testing

@Suite("Session keys are wiped when the session ends")
struct SessionKeysTests {
    static func keys() -> SessionKeys {
        SessionKeys(encryption: [UInt8](repeating: 0x11, count: 16), mac: [UInt8](repeating: 0x22, count: 16))
    }

    @Test func consumingInitZeroesTheCallersArraysAndWipeEmptiesTheKeys() {
        var encryption = [UInt8](repeating: 0x11, count: 16)
        var mac = [UInt8](repeating: 0x22, count: 16)
        let keys = SessionKeys(consumingEncryption: &encryption, mac: &mac)
        #expect(encryption == [UInt8](repeating: 0, count: 16) && mac == [UInt8](repeating: 0, count: 16))
        #expect(keys.encryption == [UInt8](repeating: 0x11, count: 16))
        #expect(!keys.isWiped)
        keys.wipe()
        #expect(keys.isWiped)
        #expect(keys.encryption.isEmpty && keys.mac.isEmpty)
        #expect("\(keys)".contains("redacted"))
    }

    @Test func closingTheChannelWipesTheKeys() throws {
        let keys = Self.keys()
        let channel = SecureMessaging(wrapping: ScriptedChannel([ScriptedChannel.Step]()), keys: keys)
        channel.close()
        #expect(keys.isWiped)
        #expect(throws: SecureMessagingError.channelClosed) {
            try channel.transmit(CommandAPDU(ins: 0x84, p1: 0, p2: 0))
        }
    }

    @Test func anErrorThatClosesTheChannelWipesTheKeys() throws {
        let keys = Self.keys()
        let challenge = try CommandAPDU(ins: 0x84, p1: 0, p2: 0, ne: 8)
        var twin = SecureMessagingSession(keys: Self.keys())
        let card = ScriptedChannel([.init(command: try twin.protect(challenge).bytes, response: [0x69, 0x88])])
        let channel = SecureMessaging(wrapping: card, keys: keys)
        #expect(throws: SecureMessagingError.responseNotProtected(.smDataObjectsIncorrect)) {
            try channel.transmit(challenge)
        }
        #expect(card.isFinished)
        #expect(keys.isWiped)
    }

    @Test func droppingTheChannelWipesTheKeys() {
        let keys = Self.keys()
        do {
            let channel = SecureMessaging(wrapping: ScriptedChannel([ScriptedChannel.Step]()), keys: keys)
            #expect(!channel.isClosed)
        }
        #expect(keys.isWiped)
    }

    @Test func restartWipesTheOldKeys() {
        let old = Self.keys()
        let new = SessionKeys(encryption: [UInt8](repeating: 3, count: 16), mac: [UInt8](repeating: 4, count: 16))
        let channel = SecureMessaging(wrapping: ScriptedChannel([ScriptedChannel.Step]()), keys: old)
        channel.restart(keys: new)
        #expect(old.isWiped)
        #expect(!new.isWiped)
        #expect(channel.keys === new)
    }

    /// A wiped key cannot be used by accident as an all-zero key: secure messaging fails.
    @Test func wipedKeysRefuseToProtect() {
        let keys = Self.keys()
        var session = SecureMessagingSession(keys: keys)
        keys.wipe()
        #expect(throws: CryptoError.invalidKeyLength(0)) {
            try session.protect(CommandAPDU(ins: 0x2C, p1: 0x02, p2: 0x03, data: Array("123456".utf8)))
        }
    }
}
