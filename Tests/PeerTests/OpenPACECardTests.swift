import COpenPACE
import EAC
import EIDCrypto
import OpenPACEPeer
import SmartCard
import Testing

/// eid's terminal against OpenPACE's card: PACE and secure messaging computed by an independent
/// implementation on the other end. Serialized: OpenPACE keeps process-wide object tables.
@Suite("eid's terminal against OpenPACE's card", .serialized)
struct OpenPACECardTests {
    static func paceInfo(_ cardAccess: [UInt8]) throws -> PACEInfo {
        let infos = try SecurityInfos(efCardAccess: cardAccess).paceInfos
        try #require(infos.count == 1)
        return infos[0]
    }

    // MARK: (a) PACE succeeds and both sides hold the same keys

    @Test func paceWithTheRightPINAgreesOnTheSessionKeys() throws {
        let card = try OpenPACECard()
        let pace = try PACE(
            channel: card, paceInfo: try Self.paceInfo(OpenPACECard.brainpoolP256r1PACEInfo), password: .pin("123456"))
        let (result, secure) = try pace.establishSecureMessaging()
        #expect(card.state == .secureMessaging)
        #expect(result.setAuthenticationTemplateStatus == .success)
        let keys = try #require(card.sessionKeys)
        // SessionKeys prints redacted, so a failure shows no key material.
        #expect(result.sessionKeys == SessionKeys(encryption: keys.encryption, mac: keys.mac))
        #expect(result.sessionKeys.encryption.count == 16)
        #expect(secure.ssc == card.ssc)
        #expect(card.ssc == [UInt8](repeating: 0, count: 16))
    }

    /// Other curves and key lengths: OpenPACE picks the curve and cipher from the PACEInfo.
    static let configurations: [(cipherArc: UInt8, parameterID: UInt8, keyLength: Int)] = [
        (2, 12, 16), (3, 16, 24), (4, 17, 32), (4, 15, 32), (4, 18, 32), (2, 8, 16), (3, 11, 24),
    ]

    @Test(arguments: 0..<configurations.count)
    func paceOnOtherCurves(index: Int) throws {
        let c = Self.configurations[index]
        let cardAccess = OpenPACECard.cardAccess(cipherArc: c.cipherArc, parameterID: c.parameterID)
        let card = try OpenPACECard(cardAccess: cardAccess, password: "500540", type: PACE_CAN, reference: 2)
        let pace = try PACE(channel: card, paceInfo: try Self.paceInfo(cardAccess), password: .can("500540"))
        let (result, secure) = try pace.establishSecureMessaging()
        let keys = try #require(card.sessionKeys)
        #expect(result.sessionKeys == SessionKeys(encryption: keys.encryption, mac: keys.mac))
        #expect(result.sessionKeys.encryption.count == c.keyLength)
        let response = try secure.transmit(CommandAPDU(ins: 0xB0, p1: 0, p2: 0, ne: 20))
        #expect(response.isSuccess)
        #expect(response.data == Array(card.file.prefix(20)))
    }

    // MARK: (b) a wrong PIN

    @Test func aWrongPINIsRejectedByOpenPACEWithoutAChipToken() throws {
        let card = try OpenPACECard()
        let info = try Self.paceInfo(OpenPACECard.brainpoolP256r1PACEInfo)
        let wrong = try PACE(channel: card, paceInfo: info, password: .pin("654321"))
        #expect(throws: PACEError.generalAuthenticateFailed(step: 4, .retriesLeft(2))) {
            try wrong.establishSecureMessaging()
        }
        // The card's answer to step 4 carries no token T_PICC, nor any data at all.
        let last = try #require(card.plainResponses.last)
        #expect(last.data.isEmpty)
        #expect(card.state == .idle)
        #expect(card.retries == 2)

        // The right PIN afterwards: MSE:Set AT reports the counter, PACE succeeds, it resets.
        let (result, _) = try PACE(channel: card, paceInfo: info, password: .pin("123456")).establishSecureMessaging()
        #expect(result.setAuthenticationTemplateStatus == .retriesLeft(2))
        #expect(card.retries == 3)
    }

    @Test func threeWrongPINsBlockTheOpenPACECard() throws {
        let card = try OpenPACECard()
        let info = try Self.paceInfo(OpenPACECard.brainpoolP256r1PACEInfo)
        for left in [2, 1, 0] {
            #expect(throws: PACEError.generalAuthenticateFailed(step: 4, .retriesLeft(left))) {
                try PACE(channel: card, paceInfo: info, password: .pin("000000")).run()
            }
        }
        #expect(throws: PACEError.setAuthenticationTemplateFailed(.authenticationMethodBlocked)) {
            try PACE(channel: card, paceInfo: info, password: .pin("123456")).run()
        }
    }

    @Test func aWrongChipTokenFromOpenPACEIsRejectedByEid() throws {
        let card = try OpenPACECard()
        card.corruptChipToken = true
        let pace = try PACE(
            channel: card, paceInfo: try Self.paceInfo(OpenPACECard.brainpoolP256r1PACEInfo), password: .pin("123456"))
        #expect(throws: PACEError.tokenMismatch) { try pace.establishSecureMessaging() }
    }

    @Test func aPasswordOfAnotherTypeIsRefusedAtSetAT() throws {
        let card = try OpenPACECard()
        let pace = try PACE(
            channel: card, paceInfo: try Self.paceInfo(OpenPACECard.brainpoolP256r1PACEInfo), password: .can("123456"))
        #expect(throws: PACEError.setAuthenticationTemplateFailed(.referenceDataNotFound)) { try pace.run() }
    }

    // MARK: (c) secure messaging in both directions

    @Test func secureMessagingAgreesWithOpenPACE() throws {
        let card = try OpenPACECard()
        let (_, secure) = try PACE(
            channel: card, paceInfo: try Self.paceInfo(OpenPACECard.brainpoolP256r1PACEInfo), password: .pin("123456")
        ).establishSecureMessaging()

        // READ BINARY: eid protects (Le in DO'97), OpenPACE verifies, answers encrypted data.
        let read = try CommandAPDU(ins: 0xB0, p1: 0x00, p2: 0x10, ne: 0x20)
        let first = try secure.transmit(read)
        #expect(card.unwrappedCommands.last == read)
        #expect(first.statusWord == .success)
        #expect(first.data == Array(card.file[0x10..<0x30]))
        #expect(secure.ssc.last == 2)
        #expect(card.ssc == secure.ssc)

        // UPDATE BINARY with data (DO'87 from eid, decrypted by OpenPACE), sizes around a block.
        for length in [1, 15, 16, 17, 200] {
            let data = (0..<length).map { UInt8(($0 * 7 + length) & 0xFF) }
            let update = try CommandAPDU(ins: 0xD6, p1: 0, p2: 0, data: data)
            let answer = try secure.transmit(update)
            #expect(answer.statusWord == .success && answer.data.isEmpty)
            #expect(card.unwrappedCommands.last == update)
            #expect(card.file == data)
        }

        // An error status word travels protected (DO'99 under OpenPACE's MAC).
        let unknown = try secure.transmit(CommandAPDU(ins: 0xCA, p1: 0, p2: 0, ne: 256))
        #expect(unknown.statusWord == .instructionNotSupported)

        // A long answer: 256 bytes encrypted by OpenPACE, decrypted by eid.
        card.file = (0..<300).map { UInt8($0 & 0xFF) }
        let long = try secure.transmit(CommandAPDU(ins: 0xB0, p1: 0, p2: 0, ne: 256))
        #expect(long.data == Array(card.file.prefix(256)))
        #expect(card.ssc == secure.ssc)
        #expect(secure.ssc.last == 16)
    }

    @Test func aTamperedCommandIsRejectedByOpenPACE() throws {
        let card = try OpenPACECard()
        let tamper = Tamperer(card)
        let (_, secure) = try PACE(
            channel: tamper, paceInfo: try Self.paceInfo(OpenPACECard.brainpoolP256r1PACEInfo), password: .pin("123456")
        ).establishSecureMessaging()
        _ = try secure.transmit(CommandAPDU(ins: 0xB0, p1: 0, p2: 0, ne: 8))
        tamper.flipCommandByte = true
        // OpenPACE's MAC check fails: it answers 6988 unprotected, which eid refuses.
        #expect(throws: SecureMessagingError.responseNotProtected(.smDataObjectsIncorrect)) {
            try secure.transmit(CommandAPDU(ins: 0xB0, p1: 0, p2: 0, ne: 8))
        }
        #expect(card.state == .idle)
        #expect(card.unwrappedCommands.count == 1)
    }

    @Test func aResponseWithAWrongMACFromOpenPACEIsRejectedByEid() throws {
        let card = try OpenPACECard()
        let (_, secure) = try PACE(
            channel: card, paceInfo: try Self.paceInfo(OpenPACECard.brainpoolP256r1PACEInfo), password: .pin("123456")
        ).establishSecureMessaging()
        card.corruptNextResponseMAC = true
        #expect(throws: SecureMessagingError.macMismatch) {
            try secure.transmit(CommandAPDU(ins: 0xB0, p1: 0, p2: 0, ne: 8))
        }
        #expect(secure.isClosed)
    }
}

/// Passes APDUs through, flipping one bit in the next protected command's data when asked.
final class Tamperer: CardChannel {
    let inner: CardChannel
    var flipCommandByte = false
    init(_ inner: CardChannel) { self.inner = inner }
    var supportsExtendedLength: Bool { inner.supportsExtendedLength }
    func transmit(_ command: CommandAPDU) throws -> ResponseAPDU {
        var command = command
        if flipCommandByte, command.isSecureMessaging, !command.data.isEmpty {
            flipCommandByte = false
            var data = command.data
            data[data.count - 1] ^= 0x01
            command = try CommandAPDU(
                cla: command.cla, ins: command.ins, p1: command.p1, p2: command.p2, data: data, ne: command.ne)
        }
        return try inner.transmit(command)
    }
}
