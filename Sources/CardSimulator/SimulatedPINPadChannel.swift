import EAC
import SmartCard

/// The in-process software card in a simulated PIN-pad reader (tests only): a `PINPadConnection`
/// whose reader side runs the project's own PACE terminal and secure messaging with what the
/// `SimulatedKeypad` types, and answers with the PC/SC Part 10 AMD1 structures. While its PACE
/// channel is open it protects plain commands; the first command that comes protected ends it.
public final class SimulatedPINPadChannel: PINPadConnection, @unchecked Sendable {
    public let plain: SimulatedCardChannel
    let keypad: SimulatedKeypad
    private let lock = Lock()
    private var secure: SecureMessaging?

    public init(card: SimulatedEIDCard, keypad: SimulatedKeypad) {
        plain = SimulatedCardChannel(card: card)
        self.keypad = keypad
    }

    public var supportsExtendedLength: Bool { true }

    public func transmit(_ command: CommandAPDU) throws -> ResponseAPDU {
        try ResponseAPDU(bytes: transmit(encoded: command.bytes))
    }

    public func transmit(encoded: [UInt8]) throws -> [UInt8] {
        if let secure = lock.withLock({ secure }), let cla = encoded.first {
            guard cla & 0x0C == 0 else {
                // Already protected (the eID server's, after Chip Authentication): the reader's own ends.
                endChannel()
                return try plain.transmit(encoded: encoded)
            }
            return try secure.transmit(encoded: encoded)
        }
        return try plain.transmit(encoded: encoded)
    }

    public func disconnect(resetCard: Bool) {
        endChannel()
        plain.disconnect(resetCard: resetCard)
    }

    public func destroyPACEChannel() throws { endChannel() }

    private func endChannel() {
        lock.withLock {
            secure?.close()
            secure = nil
        }
    }

    public func establishPACEChannel(inputData: [UInt8], timeout: Double) throws -> [UInt8] {
        let output: EstablishPACEChannelOutput
        if let input = try? EstablishPACEChannelInput(decoding: inputData) {
            output = establish(input)
        } else {
            output = EstablishPACEChannelOutput(result: EstablishPACEChannelResultCode(rawValue: 0xD000_0002))
        }
        return try output.response()
    }

    /// PACE on the card as a reader runs it: EF.CardAccess, MSE:Set AT, General Authenticate,
    /// inside the open channel if there is one (the PIN after the CAN).
    private func establish(_ input: EstablishPACEChannelInput) -> EstablishPACEChannelOutput {
        let over: CardChannel = lock.withLock { secure } ?? plain
        guard let secret = keypad.type(input) else { return .init(result: .cancelledByUser) }
        defer { secret.wipe() }
        do {
            let cardAccess = try over.readFile(shortFileID: EIDFile.cardAccessShortID)
            let info = try SecurityInfos(efCardAccess: cardAccess).runnablePACEInfo()
            let pace = try PACE(
                channel: over, paceInfo: info, password: PACEPassword(type: input.passwordType, secret: secret),
                chat: input.chat.isEmpty ? nil : input.chat)
            let (result, channel) = try pace.establishSecureMessaging()
            lock.withLock { secure = channel }
            return EstablishPACEChannelOutput(
                result: .noError, mseSetATStatus: result.setAuthenticationTemplateStatus, efCardAccess: cardAccess,
                currentCAR: result.mostRecentCAR, previousCAR: result.previousCAR, idICC: result.idPICC)
        } catch {
            endChannel()
            return EstablishPACEChannelOutput(result: Self.resultCode(error))
        }
    }

    /// The Result a reader gives for a failed PACE: the card's status word with its step.
    static func resultCode(_ error: Error) -> EstablishPACEChannelResultCode {
        switch error {
        case PACEError.setAuthenticationTemplateFailed(let sw): return .cardStatus(step: 2, sw)
        case PACEError.generalAuthenticateFailed(let step, let sw): return .cardStatus(step: 2 + step, sw)
        case CardError.cardRemoved: return .noCard
        case CardError.statusWord(let sw): return .cardStatus(step: 1, sw)
        default: return EstablishPACEChannelResultCode(rawValue: 0xE000_0002)
        }
    }

    /// RESET RETRY COUNTER (change) with the new PIN from the keypad, in the open channel.
    public func modifyPIN(inputData: [UInt8], timeout: Double) throws -> [UInt8] {
        guard let input = try? ModifyPINInput(decoding: inputData), input.command.count == 4 else {
            return [0x6A, 0x80]
        }
        guard let secure = lock.withLock({ secure }) else { return [0x69, 0x82] }
        guard let newPIN = keypad.typeNewPIN() else { return [0x64, 0x01] }
        defer { newPIN.wipe() }
        let header = input.command
        var command = try CommandAPDU(
            cla: header[0], ins: header[1], p1: header[2], p2: header[3], data: newPIN.copyBytes())
        defer { command.zeroData() }
        let sw = try secure.transmit(command).statusWord
        return [sw.sw1, sw.sw2]
    }
}
