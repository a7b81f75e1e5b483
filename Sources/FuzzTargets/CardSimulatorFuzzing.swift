import CardSimulator
import EAC
import EIDCrypto
import SmartCard
import TestPKI

/// eid-sim's card behind secure messaging. PACE (PIN, CHAT with every right of an
/// authentication terminal) runs once per process with eid's terminal; every input then starts
/// from the card's state right after it (restored, so an input replays alone) and is a list of
/// commands (FuzzFields). A field whose first byte has bit 8 set is sent as the rest of its
/// bytes unchanged (malformed secure messaging, plain commands); otherwise the rest is a plain
/// command APDU that the terminal's session protects, and the card's answer is unprotected.
/// The session keys are random per process, so the corpus holds plain commands, not traffic.
public enum CardSimulatorFuzzing {
    public static let date = CalendarDate(year: 2026, month: 11, day: 25)!
    public static let chat = CHAT(role: .terminal, rights: Set(AccessRight.allCases))

    struct Established: @unchecked Sendable {
        let card: SimulatedEIDCard
        let afterPACE: CardContext
        let keys: SessionKeys
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
            return Established(
                card: card, afterPACE: card.withContext { $0 }, keys: result.sessionKeys, terminal: secure)
        } catch {
            // The harness itself is broken, not the input: no target to fuzz.
            preconditionFailure("PACE with the software card failed: \(error)")
        }
    }()

    static func run(_ data: [UInt8]) { _ = answers(data) }

    /// Runs `data` and returns the card's status word for each command, unprotected where the
    /// terminal's session could (nil where the card's answer was no response APDU).
    public static func answers(_ data: [UInt8]) -> [StatusWord?] {
        let state = established
        return state.lock.withLock {
            state.card.withContext { $0 = state.afterPACE }
            var session = SecureMessagingSession(keys: state.keys)
            var answers: [StatusWord?] = []
            for field in FuzzFields.split(data) {
                guard let mode = field.first else { continue }
                let rest = Array(field.dropFirst())
                if mode & 0x80 != 0 {
                    answers.append(try? ResponseAPDU(bytes: state.card.respond(to: rest)).statusWord)
                    continue
                }
                guard let command = try? CommandAPDU(bytes: rest), let protected = try? session.protect(command)
                else { continue }
                guard let response = try? ResponseAPDU(bytes: state.card.respond(to: protected.bytes)) else {
                    answers.append(nil)
                    continue
                }
                answers.append((try? session.unprotect(response))?.statusWord ?? response.statusWord)
            }
            return answers
        }
    }

    /// A seed: each plain command to be protected, in order.
    public static func seed(_ commands: [CommandAPDU]) -> [UInt8] {
        FuzzFields.join(commands.map { [0x00] + $0.bytes })
    }
}
