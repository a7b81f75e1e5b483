import EAC
import SmartCard

/// One PACE run by the phone against its card (PIN-pad mode): EF.CardAccess read, MSE:Set AT and General
/// Authenticate with the typed password, through EAC's terminal side; the result as the PC/SC output and,
/// on success, the new secure messaging channel.
struct PhonePACERun {
    let channel: CardChannel
    let password: PACEPassword
    let chat: [UInt8]?

    func run() -> (output: PhonePACEOutput, secureMessaging: SecureMessaging?) {
        let cardAccess: [UInt8]
        do {
            cardAccess = try channel.readFile(shortFileID: EIDFile.cardAccessShortID)
        } catch CardError.statusWord(let sw) {
            return (PhonePACEOutput(resultCode: PhonePACEOutput.cardError(step: 0x01, sw)), nil)
        } catch {
            return (PhonePACEOutput(resultCode: PhonePACEOutput.communicationAbort), nil)
        }
        var output = PhonePACEOutput(resultCode: PhonePACEOutput.noError, cardAccess: cardAccess)
        do {
            let info = try SecurityInfos(efCardAccess: cardAccess).runnablePACEInfo()
            let pace = try PACE(channel: channel, paceInfo: info, password: password, chat: chat)
            let setAT = try pace.setAuthenticationTemplate()
            output.setATStatus = setAT.statusWord
            let result = try pace.generalAuthenticate(setATStatus: setAT.statusWord)
            // PACE inside the phone's earlier channel (the PIN after the CAN) replaces that channel.
            let plain: CardChannel
            if let previous = channel as? SecureMessaging {
                previous.close()
                plain = previous.underlying
            } else {
                plain = channel
            }
            let secure = SecureMessaging(wrapping: plain, keys: result.sessionKeys)
            output.currentCAR = Array((result.mostRecentCAR ?? "").utf8)
            output.previousCAR = Array((result.previousCAR ?? "").utf8)
            output.idICC = result.idPICC
            return (output, secure)
        } catch let error as PACEError {
            output.resultCode = Self.resultCode(error)
            if case .setAuthenticationTemplateFailed(let sw) = error { output.setATStatus = sw }
            return (output, nil)
        } catch {
            output.resultCode = PhonePACEOutput.communicationAbort
            return (output, nil)
        }
    }

    /// The PC/SC result code for a failed PACE: the card's status word with its step (a wrong PIN:
    /// General Authenticate step 4, 63Cx), else a communication abort.
    static func resultCode(_ error: PACEError) -> UInt32 {
        switch error {
        case .setAuthenticationTemplateFailed(let sw): return PhonePACEOutput.cardError(step: 0x02, sw)
        case .generalAuthenticateFailed(let step, let sw):
            return PhonePACEOutput.cardError(step: UInt8(0x02 + min(max(step, 1), 4)), sw)
        case .tokenMismatch: return 0xE000_0006  // wrong authentication token (TR-03119 D.1.2)
        default: return PhonePACEOutput.communicationAbort
        }
    }
}
