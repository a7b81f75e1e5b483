import CardSimulator
import EAC
import EIDCrypto
import SmartCard
import TestPKI

/// eid-sim's card behind secure messaging. PACE (PIN, CHAT with every right of an
/// authentication terminal) runs once per process with eid's terminal; every input then starts
/// from the card's state right after it (restored, so an input replays alone) and is a list of
/// commands (FuzzFields), each led by a mode byte:
/// - bit 8 set: the rest is sent to the card unchanged (malformed secure messaging, plain commands);
/// - bit 7 set: EXTERNAL AUTHENTICATE, signed by the harness with `CardSimulatorTerminal`'s key
///   over ID_PICC, the last GET CHALLENGE and the last MSE:Set AT for TA (the challenge is random);
/// - bit 6 set: Chip Authentication by the harness with the terminal's fixed ephemeral key, after
///   which the commands run under the CA keys;
/// - otherwise the rest is a plain command APDU that the terminal's secure messaging protects (so
///   the fuzzer reaches the handlers, not only the MAC check), and the answer is unprotected.
/// The session keys are random per process, so the corpus holds plain commands, not traffic.
public enum CardSimulatorFuzzing {
    public static let date = CalendarDate(year: 2026, month: 11, day: 25)!
    public static let chat = CHAT(role: .terminal, rights: Set(AccessRight.allCases))
    public static let raw: UInt8 = 0x80
    public static let signedExternalAuthenticate: UInt8 = 0x40
    public static let chipAuthentication: UInt8 = 0x20

    struct Established: @unchecked Sendable {
        // Unchecked: used only under `lock`.
        let card: SimulatedEIDCard
        let channel: SimulatedCardChannel
        let afterPACE: CardContext
        let keys: SessionKeys
        let ssc: [UInt8]
        let idPICC: [UInt8]
        let selection: ChipAuthentication.Selection
        /// Holds the keys (closing or releasing the channel wipes them).
        let terminal: SecureMessaging
        let lock = Lock()
    }

    static let established: Established = {
        let card = SimulatedEIDCard()
        card.withContext {
            $0.trustAnchors = [TestCertificateAuthority.project.certificate]
            $0.currentDate = date
        }
        card.powerOn()
        let channel = SimulatedCardChannel(card: card)
        do {
            let infos = try SecurityInfos(efCardAccess: try channel.readFile(shortFileID: EIDFile.cardAccessShortID))
            let (result, secure) = try PACE(
                channel: channel, paceInfo: try infos.runnablePACEInfo(), password: .pin("123456"), chat: chat.encoded
            ).establishSecureMessaging()
            let cardSecurity = try SecurityInfos(efCardSecurity: try PassiveAuthentication.readCardSecurity(secure))
            return Established(
                card: card, channel: channel, afterPACE: card.withContext { $0 }, keys: result.sessionKeys,
                ssc: secure.ssc, idPICC: result.idPICC, selection: try ChipAuthentication.select(from: cardSecurity),
                terminal: secure)
        } catch {
            // The harness itself is broken, not the input: no target to fuzz.
            preconditionFailure("PACE with the software card failed: \(error)")
        }
    }()

    static func run(_ data: [UInt8]) { _ = answers(data) }

    /// Runs `data` and returns the card's status word for each command (unprotected; nil where
    /// there was no answer or secure messaging had ended); for harness CA, 9000 when it succeeded.
    public static func answers(_ data: [UInt8]) -> [StatusWord?] {
        let state = established
        return state.lock.withLock {
            state.card.withContext { $0 = state.afterPACE }
            // A copy of the keys: the channel wipes its keys when an error closes it.
            let secure = SecureMessaging(
                wrapping: state.channel, keys: SessionKeys(encryption: state.keys.encryption, mac: state.keys.mac),
                ssc: state.ssc)
            var challenge: [UInt8]?
            var template: TerminalAuthenticationTemplate?
            var answers: [StatusWord?] = []
            for field in FuzzFields.split(data) {
                guard let mode = field.first else { continue }
                let rest = Array(field.dropFirst())
                if mode & raw != 0 {
                    answers.append(try? ResponseAPDU(bytes: state.card.respond(to: rest)).statusWord)
                    continue
                }
                if mode & chipAuthentication != 0 {
                    let done = try? ChipAuthentication(channel: secure).run(
                        selection: state.selection, ephemeralKey: CardSimulatorTerminal.ephemeralKey)
                    answers.append(done == nil ? nil : .success)
                    continue
                }
                let command: CommandAPDU
                if mode & signedExternalAuthenticate != 0 {
                    guard let challenge, let template,
                        let signature = try? TerminalAuthenticationSignatureInput(
                            idPICC: state.idPICC, challenge: challenge,
                            compressedEphemeralKey: template.compressedEphemeralKey,
                            auxiliaryData: template.auxiliaryData
                        ).sign(with: CardSimulatorTerminal.terminalKey.privateKey, algorithm: template.algorithm)
                    else { continue }
                    guard let external = try? CommandAPDU.externalAuthenticate(signature: signature) else { continue }
                    command = external
                } else {
                    guard let parsed = try? CommandAPDU(bytes: rest) else { continue }
                    command = parsed
                }
                let response = try? secure.transmit(command)
                if command.ins == 0x84, let response, response.statusWord == .success { challenge = response.data }
                if command.ins == 0x22, command.p1 == 0x81, command.p2 == 0xA4 {
                    template = try? TerminalAuthenticationTemplate(data: command.data)
                }
                answers.append(response?.statusWord)
            }
            return answers
        }
    }

    /// A seed: each plain command to be protected, in order.
    public static func seed(_ commands: [CommandAPDU]) -> [UInt8] {
        FuzzFields.join(commands.map { [0x00] + $0.bytes })
    }
}
