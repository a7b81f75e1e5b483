import EAC
import EIDCrypto
import SmartCard
import Testing

/// A minimal card side of PACE and secure messaging, built only from the public building
/// blocks (`PACESteps`, `CommandAPDU+PACE`, `PACEAuthenticationTemplate`, `DynamicAuthenticationData`, `SecureMessagingSession`)
/// the software card uses: proves those blocks fit the terminal for every supported curve
/// and key length, with random keys on both sides.
final class LoopbackCard: CardChannel {
    let steps: PACESteps
    let password: PACEPassword
    var retries = 3
    let supportsExtendedLength = true

    private var passwordKey: [UInt8] = []
    private var nonce: [UInt8] = []
    private var mappingKey: ECKeyPair?
    private var generator: ECPoint?
    private var ephemeralKey: ECKeyPair?
    private var keys: SessionKeys?
    private var terminalKey: ECPoint?
    var session: SecureMessagingSession?

    init(steps: PACESteps, password: PACEPassword) {
        self.steps = steps
        self.password = password
    }

    func transmit(_ command: CommandAPDU) throws -> ResponseAPDU {
        if command.isSecureMessaging {
            guard var s = session else { return ResponseAPDU(statusWord: .smDataObjectsMissing) }
            guard let plain = try? s.unprotect(command) else {
                session = nil
                return ResponseAPDU(statusWord: .smDataObjectsIncorrect)
            }
            // PACE inside SM is answered under the old session; a successful step 4 then
            // replaces it. Anything else: echo the data reversed, as a card returns content.
            session = s
            let plainResponse =
                [0x22, 0x86].contains(plain.ins)
                ? try handlePACE(plain) : ResponseAPDU(data: plain.data.reversed(), statusWord: .success)
            let replacement = session
            let response = try s.protect(plainResponse)
            session = plain.ins == 0x86 && plain.cla & 0x10 == 0 && plainResponse.isSuccess ? replacement : s
            return response
        }
        return try handlePACE(command)
    }

    func handlePACE(_ command: CommandAPDU) throws -> ResponseAPDU {
        typealias Tag = DynamicAuthenticationData.Tag
        if command.ins == 0x22 {
            let mse = try PACEAuthenticationTemplate(command: command)
            guard mse.protocol == steps.protocol.oid, mse.password == password.type else {
                return ResponseAPDU(statusWord: .referenceDataNotFound)
            }
            passwordKey = try steps.passwordKey(password)
            return ResponseAPDU(statusWord: retries < 3 ? .retriesLeft(retries) : .success)
        }
        let data = try DynamicAuthenticationData(bytes: command.data)
        func answer(_ tag: UInt32, _ value: [UInt8]) -> ResponseAPDU {
            ResponseAPDU(data: DynamicAuthenticationData([TLV(tag: tag, value: value)]).bytes, statusWord: .success)
        }
        switch data.objects.first?.tag {
        case nil:
            nonce = try steps.randomNonce()
            return answer(Tag.encryptedNonce, try steps.encryptNonce(nonce, passwordKey: passwordKey))
        case Tag.terminalMappingData:
            let key = try steps.mappingKeyPair(ECPrivateKey(randomIn: steps.group))
            mappingKey = key
            generator = try steps.mapGenerator(
                nonce: nonce, mappingKey: key, peerMappingKey: steps.publicKey(data[Tag.terminalMappingData]!))
            return answer(Tag.chipMappingData, key.publicKey.encoded)
        case Tag.terminalEphemeralPublicKey:
            let key = try steps.ephemeralKeyPair(ECPrivateKey(randomIn: steps.group), generator: generator!)
            let terminal = try steps.publicKey(data[Tag.terminalEphemeralPublicKey]!)
            ephemeralKey = key
            terminalKey = terminal
            keys = try steps.sessionKeys(
                sharedSecret: steps.sharedSecret(ephemeralKey: key, peerEphemeralKey: terminal))
            return answer(Tag.chipEphemeralPublicKey, key.publicKey.encoded)
        case Tag.terminalToken:
            guard
                try steps.verifyAuthenticationToken(
                    data[Tag.terminalToken]!, macKey: keys!.mac, over: ephemeralKey!.publicKey)
            else {
                retries -= 1
                return ResponseAPDU(statusWord: .retriesLeft(retries))
            }
            retries = 3
            session = SecureMessagingSession(keys: keys!)
            return answer(Tag.chipToken, try steps.authenticationToken(macKey: keys!.mac, over: terminalKey!))
        default:
            return ResponseAPDU(statusWord: .wrongData)
        }
    }
}

@Suite("PACE and secure messaging against a card built from the shared building blocks")
struct LoopbackCardTests {
    static let configurations: [(PACEProtocol, Int)] = [
        (.ecdhGenericMappingAES128, 13), (.ecdhGenericMappingAES128, 12), (.ecdhGenericMappingAES192, 16),
        (.ecdhGenericMappingAES256, 17), (.ecdhGenericMappingAES256, 15), (.ecdhGenericMappingAES256, 18),
        (.ecdhGenericMappingAES128, 8), (.ecdhGenericMappingAES192, 11), (.ecdhGenericMappingAES256, 14),
    ]

    @Test(arguments: 0..<configurations.count)
    func paceThenSecureMessaging(index: Int) throws {
        let (proto, id) = Self.configurations[index]
        let card = LoopbackCard(steps: try PACESteps(protocol: proto, domainParameterID: id), password: .can("500540"))
        let pace = try PACE(channel: card, protocol: proto, domainParameterID: id, password: .can("500540"))
        let (result, secure) = try pace.establishSecureMessaging()
        #expect(result.sessionKeys.encryption.count == proto.cipher.keyLength)
        #expect(result.idPICC.count == pace.steps.group.fieldSize)
        for length in [0, 1, 15, 16, 17, 200] {
            let data = (0..<length).map { UInt8($0 & 0xFF) }
            let command = try CommandAPDU(ins: 0xD6, p1: 0, p2: 0, data: data, ne: 256)
            let response = try secure.transmit(command)
            #expect(response.data == data.reversed())
            #expect(response.isSuccess)
        }
    }

    @Test func wrongPasswordCountsDownAndTheRightOneRecovers() throws {
        let steps = try PACESteps(protocol: .ecdhGenericMappingAES128, domainParameterID: 13)
        let card = LoopbackCard(steps: steps, password: .pin("123456"))
        let wrong = try PACE(
            channel: card, protocol: .ecdhGenericMappingAES128, domainParameterID: 13, password: .pin("654321"))
        #expect(throws: PACEError.generalAuthenticateFailed(step: 4, .retriesLeft(2))) { try wrong.run() }
        // The next MSE:Set AT reports the counter to the caller, PACE itself goes on.
        let right = try PACE(
            channel: card, protocol: .ecdhGenericMappingAES128, domainParameterID: 13, password: .pin("123456"))
        let result = try right.run()
        #expect(result.setAuthenticationTemplateStatus == .retriesLeft(2))
    }

    @Test func cardDroppingSecureMessagingIsAnError() throws {
        let steps = try PACESteps(protocol: .ecdhGenericMappingAES128, domainParameterID: 13)
        let card = LoopbackCard(steps: steps, password: .can("123456"))
        let (_, secure) = try PACE(
            channel: card, protocol: .ecdhGenericMappingAES128, domainParameterID: 13,
            password: .can("123456")
        ).establishSecureMessaging()
        _ = try secure.transmit(CommandAPDU(ins: 0xB0, p1: 0, p2: 0, ne: 256))
        card.session = nil  // the card forgets the session (e.g. reset)
        #expect(throws: SecureMessagingError.responseNotProtected(.smDataObjectsMissing)) {
            try secure.transmit(CommandAPDU(ins: 0xB0, p1: 0, p2: 0, ne: 256))
        }
        #expect(secure.isClosed)
    }

    @Test func paceWithThePINInsideTheCANSession() throws {
        let steps = try PACESteps(protocol: .ecdhGenericMappingAES128, domainParameterID: 13)
        let card = LoopbackCard(steps: steps, password: .can("123456"))
        let (_, canSession) = try PACE(
            channel: card, protocol: .ecdhGenericMappingAES128, domainParameterID: 13,
            password: .can("123456")
        ).establishSecureMessaging()
        // The second PACE runs inside the first session (the test card knows one password; a
        // real card would take the PIN here) and its keys replace the first session's.
        let (result, pinSession) = try PACE(
            channel: canSession, protocol: .ecdhGenericMappingAES128, domainParameterID: 13,
            password: .can("123456")
        ).establishSecureMessaging()
        #expect(canSession.isClosed)
        #expect(canSession.ssc.last == 10)  // MSE:Set AT and four General Authenticates went through it
        #expect(pinSession.underlying === card)
        #expect(result.sessionKeys.mac.count == 16)
        let response = try pinSession.transmit(CommandAPDU(ins: 0xD6, p1: 0, p2: 0, data: [1, 2, 3], ne: 256))
        #expect(response.data == [3, 2, 1])
    }
}
