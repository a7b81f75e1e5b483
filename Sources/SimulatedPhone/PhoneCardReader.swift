import CardSimulator
import EAC
import SmartCard

/// The phone's NFC reader with the software card on it (AusweisApp's phone as seen from its IFD server):
/// one slot, the card present or removed, and in PIN-pad mode the phone's own PACE and secure messaging.
/// After the phone's PACE, plain commands are protected by the phone; a command that comes already
/// protected (CLA with the secure messaging bits: the eID server's, after Chip Authentication) ends the
/// phone's secure messaging and goes to the card unchanged (as AusweisApp's CardConnectionWorker).
public final class PhoneCardReader: @unchecked Sendable {
    // @unchecked: every mutable field is reached under `lock`.
    public let name: String
    /// PIN-pad mode: the phone runs PACE itself with what its user types on `keypad`.
    public let pinPad: Bool
    let keypad: PhoneKeypad
    /// What IFDStatus reports as MaxAPDULength (an NFC reader with extended length).
    public let maxAPDULength = 65546
    private let channel: SimulatedCardChannel
    private let lock = Lock()
    private var present = true
    private var secureMessaging: SecureMessaging?
    private var observers: [Int: @Sendable () -> Void] = [:]
    private var nextObserver = 0

    public init(name: String, card: SimulatedEIDCard, pinPad: Bool, keypad: PhoneKeypad) {
        self.name = name
        self.channel = SimulatedCardChannel(card: card)
        self.pinPad = pinPad
        self.keypad = keypad
    }

    public var cardPresent: Bool { lock.withLock { present } }

    /// Whether the phone holds secure messaging with the card (after its own PACE).
    public var hasSecureMessaging: Bool { lock.withLock { secureMessaging != nil } }

    var status: PhoneSlotStatus {
        PhoneSlotStatus(name: name, pinPad: pinPad, maxAPDULength: maxAPDULength, cardAvailable: cardPresent)
    }

    /// Calls `observer` after each insertion or removal of the card; returns a token for `removeObserver`.
    func addObserver(_ observer: @escaping @Sendable () -> Void) -> Int {
        lock.withLock {
            nextObserver += 1
            observers[nextObserver] = observer
            return nextObserver
        }
    }

    func removeObserver(_ token: Int) { lock.withLock { _ = observers.removeValue(forKey: token) } }

    /// The card leaves the reader: powered off, the phone's secure messaging ends.
    public func removeCard() { setPresent(false) }

    /// The card is put back: a new card session.
    public func insertCard() { setPresent(true) }

    private func setPresent(_ value: Bool) {
        let toCall: [@Sendable () -> Void] = lock.withLock {
            guard present != value else { return [] }
            present = value
            secureMessaging?.close()
            secureMessaging = nil
            if value { channel.card.powerOn() } else { channel.card.powerOff() }
            return Array(observers.values)
        }
        for observer in toCall { observer() }
    }

    /// Sends the command APDU `bytes` and returns the response APDU; nil when the card does not answer
    /// or the phone's secure messaging fails (which ends it).
    func transmit(_ bytes: [UInt8]) -> [UInt8]? {
        lock.withLock {
            guard present else { return nil }
            if let sm = secureMessaging, bytes.count >= 1, bytes[0] & 0x0C == 0x0C {
                sm.close()
                secureMessaging = nil
            }
            guard let sm = secureMessaging else { return try? channel.transmit(encoded: bytes) }
            do {
                return try sm.transmit(CommandAPDU(bytes: bytes)).bytes
            } catch {
                sm.close()
                secureMessaging = nil
                return nil
            }
        }
    }

    /// PACE run by the phone with the password its user types (PIN-pad mode): the PC/SC output; on success
    /// the phone keeps the secure messaging.
    func establishPACEChannel(_ input: PhonePACEInput) -> PhonePACEOutput {
        lock.withLock {
            guard present else { return PhonePACEOutput(resultCode: PhonePACEOutput.noCard) }
            guard let password = keypad.password(input.passwordType) else {
                return PhonePACEOutput(resultCode: PhonePACEOutput.abort)
            }
            let outcome = PhonePACERun(channel: secureMessaging ?? channel, password: password, chat: input.chat).run()
            // The card ends its secure messaging with a failed PACE; so does the phone.
            if outcome.secureMessaging == nil { secureMessaging?.close() }
            secureMessaging = outcome.secureMessaging
            return outcome.output
        }
    }

    /// ModifyPIN with the new PIN the user types, in the phone's PACE channel (without one the card
    /// refuses it): the card's response APDU (its status word); nil when the card does not answer.
    func modifyPIN() -> PhoneModifyPINOutcome {
        lock.withLock {
            guard present else { return .noCard }
            guard var newPIN = keypad.typedNewPIN() else { return .cancelled }
            defer { Secret.zero(&newPIN) }
            guard var command = try? CommandAPDU.resetRetryCounter(change: newPIN) else { return .badFormat }
            defer { command.zeroData() }
            let channel: CardChannel = secureMessaging ?? self.channel
            guard let response = try? channel.transmit(command) else { return .noCard }
            return .answered(response.bytes)
        }
    }

    /// Ends the phone's PACE channel and secure messaging.
    func destroyPACEChannel() {
        lock.withLock {
            secureMessaging?.close()
            secureMessaging = nil
        }
    }
}
