import EAC
import EIDCrypto
import SmartCard
import TestPKI
import Testing

@testable import CardSimulator

/// The terminal's PACE (EAC) against the software card through `SimulatedCardChannel`: every
/// value the card computes is checked by the independent terminal side, and every secure
/// messaging response is MAC-verified by the terminal's `SecureMessaging`.
@Suite struct PACEHandlerTests {
    static var readCardSecurity: CommandAPDU {
        get throws { try CommandAPDU.readBinary(shortFileID: EIDFile.cardSecurityShortID) }
    }
    /// A CHAT for an authentication terminal (06 id-AT, 53 rights).
    static let chat = [UInt8](hex: "7f4c12060904007f000703010202530500000000ff")!

    static func changePIN(_ digits: String) throws -> CommandAPDU {
        try CommandAPDU(ins: 0x2C, p1: 0x02, p2: 0x03, data: Array(digits.utf8))
    }
    static var unblockPIN: CommandAPDU { get throws { try CommandAPDU(ins: 0x2C, p1: 0x03, p2: 0x03) } }

    func pace(
        _ channel: CardChannel, _ password: PACEPassword, chat: [UInt8]? = nil
    ) throws -> (result: PACEResult, channel: SecureMessaging) {
        try PACE(
            channel: channel, protocol: .ecdhGenericMappingAES128, domainParameterID: 13, password: password,
            chat: chat
        ).establishSecureMessaging()
    }

    func expectPACEFails(
        _ channel: CardChannel, _ password: PACEPassword, step: Int, _ sw: UInt16,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            throws: PACEError.generalAuthenticateFailed(step: step, StatusWord(rawValue: sw)),
            sourceLocation: sourceLocation
        ) { try pace(channel, password) }
    }

    func cardSSC(_ card: SimulatedEIDCard) -> [UInt8]? {
        card.withContext { ($0.session.secureMessaging as? AESSecureMessaging)?.ssc }
    }

    // MARK: success with every password

    @Test(arguments: [
        (PACEPassword.pin("123456"), PACEPasswordType.pin), (.can("500540"), .can),
        (.puk("9876543210"), .puk),
    ])
    func paceGivesWorkingSecureMessaging(password: PACEPassword, reference: PACEPasswordType) throws {
        let channel = SimulatedCardChannel()
        let card = channel.card
        let (result, secure) = try pace(channel, password)
        #expect(result.setAuthenticationTemplateStatus == .success)
        #expect(result.mostRecentCAR == nil && result.previousCAR == nil)  // no CHAT, no TA: no CARs
        #expect(card.withContext { $0.session.authenticatedPassword } == reference)
        #expect(card.withContext { $0.session.canVerified } == (reference == .can))
        #expect(cardSSC(card) == [UInt8](repeating: 0, count: 16))

        let response = try secure.transmit(Self.readCardSecurity)
        #expect(response.isSuccess)
        #expect(response.data == Array(SimulatorSecurityInfos.defaultCardSecurity.prefix(256)))
        #expect(cardSSC(card) == secure.ssc)  // card and terminal count in step
        #expect(try secure.transmit(CommandAPDU.selectFile(0x0101)).statusWord == .fileNotFound)  // errors wrapped too

        // A plain command ends secure messaging (and the access it granted).
        #expect(try channel.transmit(Self.readCardSecurity).statusWord == .securityStatusNotSatisfied)
        #expect(card.withContext { $0.session.secureMessaging == nil && $0.session.authenticatedPassword == nil })
        #expect(throws: SecureMessagingError.responseNotProtected(.secureMessagingNotSupported)) {
            try secure.transmit(Self.readCardSecurity)
        }
    }

    @Test func withCHATStepFourNamesTheCARs() throws {
        let channel = SimulatedCardChannel()
        let (result, _) = try pace(channel, .pin("123456"), chat: Self.chat)
        // The card's trust anchors: by default only the project's test CVCA.
        #expect(result.mostRecentCAR == "DEEIDTESTCA00001")
        #expect(result.previousCAR == nil)
        #expect(result.idPICC.count == 32)
        // The CHAT of MSE:Set AT stays in the session for Terminal Authentication; no EAC yet.
        #expect(channel.card.withContext { $0.session.paceCHAT } == (try CHAT(encoded: Self.chat)))
        #expect(channel.card.withContext { $0.session.eacAccess } == EACAccess())
    }

    @Test func theCARsAreTheTrustAnchorsCurrentFirst() throws {
        let today = CalendarDate(year: 2026, month: 11, day: 23)!
        let anchors = try ["DEEIDNEWCA00002", "DEEIDOLDCA00001"].map {
            try TestCertificateAuthority.generate(
                holderReference: $0, effectiveDate: today, expirationDate: try today.adding(days: 365)
            ).certificate
        }
        var profile = CardProfile()
        profile.trustAnchors = anchors
        let channel = SimulatedCardChannel(card: SimulatedEIDCard(profile: profile))
        let (result, _) = try pace(channel, .can("500540"), chat: Self.chat)
        #expect(result.mostRecentCAR == "DEEIDNEWCA00002")
        #expect(result.previousCAR == "DEEIDOLDCA00001")
    }

    @Test func paceWithoutCHATKeepsNone() throws {
        let channel = SimulatedCardChannel()
        _ = try pace(channel, .pin("123456"), chat: Self.chat)
        channel.card.withContext { $0.session.eacAccess.terminalAuthenticated = true }
        _ = try pace(channel, .can("500540"))
        // A new PACE starts EAC afresh.
        #expect(channel.card.withContext { $0.session.paceCHAT } == nil)
        #expect(channel.card.withContext { $0.session.eacAccess } == EACAccess())
    }

    @Test func eachRunUsesAFreshNonceAndKeys() throws {
        let channel = SimulatedCardChannel()
        // Both secure messaging channels stay open: a closed one has wiped its keys.
        let (first, firstChannel) = try pace(channel, .can("500540"))
        let (second, secondChannel) = try pace(channel, .can("500540"))
        #expect(!first.sessionKeys.isWiped && !second.sessionKeys.isWiped)
        #expect(first.sessionKeys != second.sessionKeys)
        #expect(first.chipEphemeralPublicKey != second.chipEphemeralPublicKey)
        withExtendedLifetime((firstChannel, secondChannel)) {}
    }

    /// The PACE result and its secure messaging channel share one set of keys: ending the
    /// session wipes them for both.
    @Test func closingTheSessionWipesTheResultsKeys() throws {
        let (result, secure) = try pace(SimulatedCardChannel(), .can("500540"))
        #expect(!result.sessionKeys.isWiped)
        secure.close()
        #expect(result.sessionKeys.isWiped)
    }

    // MARK: wrong passwords and the PIN rules

    @Test func wrongPINCountsDownThenTheSuspendedPINNeedsTheCAN() throws {
        let channel = SimulatedCardChannel()
        expectPACEFails(channel, .pin("000000"), step: 4, 0x63C2)
        expectPACEFails(channel, .pin("000000"), step: 4, 0x63C1)
        #expect(channel.card.passwords.pinRetryCounter == 1)
        // Suspended: refused at step 1 with 63C1, even with the right PIN, and nothing counted.
        expectPACEFails(channel, .pin("123456"), step: 1, 0x63C1)
        #expect(channel.card.passwords.pinRetryCounter == 1)
        #expect(channel.card.withContext { $0.session.protocolState.isEmpty })
    }

    @Test func wrongCANAndPUKAnswer6300AndCountNothing() throws {
        let channel = SimulatedCardChannel()
        expectPACEFails(channel, .can("111111"), step: 4, 0x6300)
        expectPACEFails(channel, .puk("1111111111"), step: 4, 0x6300)
        #expect(channel.card.passwords == PasswordState(profile: CardProfile()))
        #expect(channel.card.withContext { $0.session.authenticatedPassword == nil && !$0.session.canVerified })
    }

    @Test func theRightPINResetsTheCounter() throws {
        let channel = SimulatedCardChannel(card: SimulatedEIDCard(profile: CardProfile(pinRetries: 2)))
        let (result, _) = try pace(channel, .pin("123456"))
        #expect(result.setAuthenticationTemplateStatus == .retriesLeft(2))
        #expect(channel.card.passwords.pinRetryCounter == 3)
    }

    @Test func pinInsideTheCANSession() throws {
        let channel = SimulatedCardChannel(card: SimulatedEIDCard(profile: CardProfile(pinRetries: 1)))
        let card = channel.card
        let (_, canSession) = try pace(channel, .can("500540"))
        let (result, pinSession) = try pace(canSession, .pin("123456"))
        #expect(result.setAuthenticationTemplateStatus == .retriesLeft(1))
        #expect(canSession.isClosed)
        #expect(pinSession.underlying === channel)
        #expect(card.passwords.pinRetryCounter == 3)
        #expect(card.withContext { $0.session.authenticatedPassword } == .pin)
        #expect(cardSSC(card) == pinSession.ssc)  // the new session starts at 0 on both sides
        #expect(try pinSession.transmit(Self.readCardSecurity).isSuccess)
    }

    @Test func aWrongPINInsideTheCANSessionKeepsThatSession() throws {
        let channel = SimulatedCardChannel(card: SimulatedEIDCard(profile: CardProfile(pinRetries: 1)))
        let (_, canSession) = try pace(channel, .can("500540"))
        // The failure comes back through the CAN session, MAC-verified.
        expectPACEFails(canSession, .pin("000000"), step: 4, 0x63C0)
        #expect(!canSession.isClosed)
        #expect(try canSession.transmit(Self.readCardSecurity).isSuccess)
        #expect(channel.card.withContext { $0.session.authenticatedPassword } == .can)
        // Blocked now: refused at step 1.
        expectPACEFails(canSession, .pin("123456"), step: 1, 0x6983)
    }

    @Test func threeWrongPINsBlockAndThePUKUnblocks() throws {
        let channel = SimulatedCardChannel()
        let card = channel.card
        expectPACEFails(channel, .pin("000000"), step: 4, 0x63C2)
        expectPACEFails(channel, .pin("000000"), step: 4, 0x63C1)
        let (_, canSession) = try pace(channel, .can("500540"))
        expectPACEFails(canSession, .pin("000000"), step: 4, 0x63C0)
        card.reset()
        expectPACEFails(channel, .pin("123456"), step: 1, 0x6983)
        #expect(card.passwords.pinRetryCounter == 0)

        let (_, pukSession) = try pace(channel, .puk("9876543210"))
        #expect(try pukSession.transmit(Self.unblockPIN).statusWord == .success)
        #expect(card.passwords.pinRetryCounter == 3)
        #expect(card.passwords.pukUsesLeft == 9)
        // The PUK does not allow a PIN change.
        #expect(try pukSession.transmit(Self.changePIN("111111")).statusWord == .securityStatusNotSatisfied)
        card.reset()
        #expect(try pace(channel, .pin("123456")).result.setAuthenticationTemplateStatus == .success)
    }

    @Test func theLastPUKUseThenInoperative() throws {
        let channel = SimulatedCardChannel(card: SimulatedEIDCard(profile: CardProfile(pinRetries: 0, pukUsesLeft: 1)))
        let (_, pukSession) = try pace(channel, .puk("9876543210"))
        #expect(try pukSession.transmit(Self.unblockPIN).statusWord == .success)
        #expect(try pukSession.transmit(Self.unblockPIN).statusWord == .securityStatusNotSatisfied)
        #expect(channel.card.passwords.pukUsesLeft == 0)
    }

    /// As on a real card (and as AusweisApp2 expects): PACE with a used-up PUK succeeds, the
    /// unblock answers 6982, and the PIN stays blocked.
    @Test func inoperativePUKIsRefusedByTheUnblock() throws {
        let channel = SimulatedCardChannel(card: SimulatedEIDCard(profile: CardProfile(pinRetries: 0, pukUsesLeft: 0)))
        let (_, pukSession) = try pace(channel, .puk("9876543210"))
        #expect(try pukSession.transmit(Self.unblockPIN).statusWord.rawValue == 0x6982)
        #expect(channel.card.passwords.pinRetryCounter == 0)
        expectPACEFails(channel, .puk("1111111111"), step: 4, 0x6300)
    }

    @Test func mrzIsNotAvailable() {
        expectPACEFails(SimulatedCardChannel(), .mrz(information: "T220001293640812556121111"), step: 1, 0x6A88)
    }

    // MARK: PIN change

    @Test func changePINInsideSecureMessaging() throws {
        let channel = SimulatedCardChannel()
        let card = channel.card
        let (_, secure) = try pace(channel, .pin("123456"))
        #expect(try secure.transmit(Self.changePIN("12345")).statusWord == .wrongData)  // 6 digits only
        #expect(try secure.transmit(Self.changePIN("654321")).statusWord == .success)
        card.reset()
        expectPACEFails(channel, .pin("123456"), step: 4, 0x63C2)
        #expect(try pace(channel, .pin("654321")).result.setAuthenticationTemplateStatus == .retriesLeft(2))
        #expect(card.passwords.pinRetryCounter == 3)
    }

    @Test func resetRetryCounterWithoutSecureMessagingEndsIt() throws {
        let channel = SimulatedCardChannel()
        _ = try pace(channel, .pin("123456"))
        #expect(try channel.transmit(Self.changePIN("654321")).statusWord == .securityStatusNotSatisfied)
        #expect(channel.card.passwords.pin == "123456")
    }

    @Test func transportPINIsChangedThroughPACEWithIt() throws {
        let channel = SimulatedCardChannel(card: SimulatedEIDCard(profile: CardProfile(transportPIN: true)))
        let card = channel.card
        expectPACEFails(channel, .pin("123456"), step: 4, 0x63C2)
        let (_, secure) = try pace(channel, .pin("12345"))
        #expect(card.passwords.pinRetryCounter == 3)
        #expect(try secure.transmit(Self.changePIN("246810")).statusWord == .success)
        #expect(!card.passwords.transportPIN)
        card.reset()
        _ = try pace(channel, .pin("246810"))
    }

    @Test func deactivatedCardAnswers6283ButThePINStillVerifies() throws {
        let channel = SimulatedCardChannel(card: SimulatedEIDCard(profile: CardProfile(deactivated: true)))
        let (result, secure) = try pace(channel, .pin("123456"))
        #expect(result.setAuthenticationTemplateStatus == .deactivated)
        #expect(try secure.transmit(Self.readCardSecurity).isSuccess)
        // With the CAN the eID function's state does not show.
        #expect(try pace(channel, .can("500540")).result.setAuthenticationTemplateStatus == .success)
    }

    // MARK: secure messaging both ways

    @Test func aTamperedResponseFailsTheTerminalsMACCheck() throws {
        let channel = SimulatedCardChannel()
        let tampering = TamperingChannel(channel)
        let (_, secure) = try pace(tampering, .can("500540"))
        tampering.flipResponseByte = true
        #expect(throws: SecureMessagingError.macMismatch) { try secure.transmit(Self.readCardSecurity) }
    }

    @Test func aTamperedCommandEndsSecureMessagingWith6988() throws {
        let channel = SimulatedCardChannel()
        let tampering = TamperingChannel(channel)
        let (_, secure) = try pace(tampering, .can("500540"))
        tampering.flipCommandByte = true
        #expect(throws: SecureMessagingError.responseNotProtected(.smDataObjectsIncorrect)) {
            try secure.transmit(Self.readCardSecurity)
        }
        #expect(channel.card.withContext { $0.session.secureMessaging == nil })
        // No DO'8E at all: 6987.
        _ = try pace(channel, .can("500540"))
        #expect(
            try channel.transmit(CommandAPDU(cla: 0x0C, ins: 0xB0, p1: 0x9D, p2: 0, ne: 256)).statusWord
                == .smDataObjectsMissing)
    }

    // MARK: protocol errors

    func ga(_ channel: SimulatedCardChannel, _ objects: [TLV], chained: Bool = true) throws -> ResponseAPDU {
        try channel.transmit(
            CommandAPDU.generalAuthenticate(pace: DynamicAuthenticationData(objects), isLast: !chained))
    }

    func mse(_ channel: SimulatedCardChannel, _ type: PACEPasswordType = .can) throws {
        try channel.transmit(
            CommandAPDU.mseSetAT(pace: PACEProtocol.ecdhGenericMappingAES128.oid, password: type)
        ).checkSuccess()
    }

    func paceRun(_ card: SimulatedEIDCard) -> PACERun? {
        card.withContext { $0.session.protocolState[PACERun.key] as? PACERun }
    }

    @Test func stepsOutOfOrderAnswer6985AndResetTheRun() throws {
        let channel = SimulatedCardChannel()
        let someKey = try ECKeyPair.generate(group: ECGroup(.brainpoolP256r1)).publicKey.encoded
        #expect(try ga(channel, []).statusWord == .conditionsOfUseNotSatisfied)  // no MSE:Set AT
        try mse(channel)
        #expect(try ga(channel, [TLV(tag: 0x81, value: someKey)]).statusWord == .conditionsOfUseNotSatisfied)
        #expect(try ga(channel, []).isSuccess)
        #expect(paceRun(channel.card)?.nextStep == 2)
        #expect(try ga(channel, []).statusWord == .conditionsOfUseNotSatisfied)  // step 1 again
        #expect(paceRun(channel.card) == nil)
        #expect(try ga(channel, [TLV(tag: 0x81, value: someKey)]).statusWord == .conditionsOfUseNotSatisfied)
        // Chaining: steps 1-3 chained, step 4 last.
        #expect(try ga(channel, [], chained: false).statusWord == .conditionsOfUseNotSatisfied)
        #expect(try ga(channel, []).isSuccess)
        #expect(try ga(channel, [TLV(tag: 0x81, value: someKey)]).isSuccess)
        #expect(
            try ga(channel, [TLV(tag: 0x85, value: [UInt8](repeating: 0, count: 8))]).statusWord
                == .conditionsOfUseNotSatisfied)  // step 4 before step 3
        // A new MSE:Set AT abandons a run.
        #expect(try ga(channel, []).isSuccess)
        try mse(channel)
        #expect(paceRun(channel.card) == nil)
        #expect(try ga(channel, []).isSuccess)
        #expect(try ga(channel, [TLV(tag: 0x81, value: someKey)]).isSuccess)
        #expect(try ga(channel, [TLV(tag: 0x83, value: someKey)]).isSuccess)
        #expect(
            try ga(channel, [TLV(tag: 0x85, value: [UInt8](repeating: 0, count: 8))]).statusWord
                == StatusWord(rawValue: 0x6883))  // a chained step 4
        #expect(paceRun(channel.card) == nil)
        #expect(channel.card.passwords == PasswordState(profile: CardProfile()))
    }

    @Test(arguments: [
        "", "7c", "7c01", "7d00", "7c0081", "7c028100", "7c0481020102", "7c03810100" + "00",
        "7c0480008100", "7c028000", "7c029000", "7c0281ff",
    ])
    func malformedStepTwoAnswers6A80(hex: String) throws {
        let channel = SimulatedCardChannel()
        try mse(channel)
        #expect(try ga(channel, []).isSuccess)
        let command = try CommandAPDU(cla: 0x10, ins: 0x86, p1: 0, p2: 0, data: [UInt8](hex: hex)!, ne: 256)
        #expect(try channel.transmit(command).statusWord == .wrongData)
        #expect(paceRun(channel.card) == nil)
    }

    @Test func pointsOffTheCurveAnswer6A80() throws {
        let channel = SimulatedCardChannel()
        var key = try ECKeyPair.generate(group: ECGroup(.brainpoolP256r1)).publicKey.encoded
        key[64] ^= 1  // y changed: not on the curve
        try mse(channel)
        #expect(try ga(channel, []).isSuccess)
        #expect(try ga(channel, [TLV(tag: 0x81, value: key)]).statusWord == .wrongData)
        // The point at infinity and a compressed point are not public keys either.
        for bad in [[0x00], [0x02] + Array(key[1...32])] {
            #expect(try ga(channel, []).isSuccess)  // the error ended the run: step 1 again
            #expect(try ga(channel, [TLV(tag: 0x81, value: bad)]).statusWord == .wrongData)
        }
        try mse(channel)
        #expect(try ga(channel, []).isSuccess)
        #expect(try ga(channel, [TLV(tag: 0x81, value: Array(key.prefix(40)))]).statusWord == .wrongData)
    }

    @Test func otherParametersAnswer6A86() throws {
        let channel = SimulatedCardChannel()
        try mse(channel)
        let command = try CommandAPDU(cla: 0x10, ins: 0x86, p1: 0x01, p2: 0, data: [0x7C, 0x00], ne: 256)
        #expect(try channel.transmit(command).statusWord == .incorrectParameters)
    }

    /// The card must reject a terminal ephemeral key equal to its own (TR-03110-2, 3.2.1). The
    /// card's key is fixed here, so the test, playing the terminal, can send it back.
    @Test func theCardsOwnEphemeralKeyIsRejected() throws {
        let cardScalar = [UInt8](repeating: 0, count: 31) + [0x2A]
        let card = SimulatedEIDCard()
        var handler = PACEHandler()
        handler.privateKey = { _, group in try ECPrivateKey(group: group, scalar: cardScalar) }
        card.register(handler)
        let channel = SimulatedCardChannel(card: card)
        let steps = try PACESteps(protocol: .ecdhGenericMappingAES128, domainParameterID: 13)
        try mse(channel)
        let z = try DynamicAuthenticationData(bytes: ga(channel, []).data)[0x80]!
        let nonce = try steps.decryptNonce(z, passwordKey: steps.passwordKey(.can("500540")))
        let mappingKey = try ECKeyPair.generate(group: steps.group)
        let r2 = try ga(channel, [TLV(tag: 0x81, value: mappingKey.publicKey.encoded)])
        let chipMappingKey = try steps.publicKey(try DynamicAuthenticationData(bytes: r2.data)[0x82]!)
        let generator = try steps.mapGenerator(nonce: nonce, mappingKey: mappingKey, peerMappingKey: chipMappingKey)
        let cardKey = try steps.ephemeralKeyPair(
            ECPrivateKey(group: steps.group, scalar: cardScalar), generator: generator)
        #expect(try ga(channel, [TLV(tag: 0x83, value: cardKey.publicKey.encoded)]).statusWord == .wrongData)
        #expect(paceRun(card) == nil)
    }

    @Test func randomGeneralAuthenticateDataNeverCrashes() throws {
        let channel = SimulatedCardChannel()
        var generator = SystemRandomNumberGenerator()
        for i in 0..<500 {
            if i % 5 == 0 { try mse(channel) }
            let count = Int.random(in: 0...80, using: &generator)
            var body = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if Bool.random(using: &generator) { body = TLV(tag: 0x7C, value: body).bytes }
            let cla: UInt8 = Bool.random(using: &generator) ? 0x10 : 0x00
            let response = try channel.transmit(CommandAPDU(cla: cla, ins: 0x86, p1: 0, p2: 0, data: body, ne: 256))
            #expect(response.statusWord != .noPreciseDiagnosis)
        }
        #expect(try pace(channel, .can("500540")).channel.transmit(Self.readCardSecurity).isSuccess)
    }
}

/// Passes APDUs through and can flip one bit of the next protected command or response.
final class TamperingChannel: CardChannel {
    let inner: CardChannel
    var flipCommandByte = false
    var flipResponseByte = false
    init(_ inner: CardChannel) { self.inner = inner }
    var supportsExtendedLength: Bool { inner.supportsExtendedLength }

    func transmit(_ command: CommandAPDU) throws -> ResponseAPDU {
        var command = command
        if flipCommandByte && !command.data.isEmpty {
            var data = command.data
            data[data.count - 1] ^= 1
            command = try CommandAPDU(
                cla: command.cla, ins: command.ins, p1: command.p1, p2: command.p2, data: data, ne: command.ne)
            flipCommandByte = false
        }
        var response = try inner.transmit(command)
        if flipResponseByte && !response.data.isEmpty {
            response.data[response.data.count - 1] ^= 1
            flipResponseByte = false
        }
        return response
    }
}
