import EAC
import SmartCard

/// What the user of a simulated PIN-pad reader types (tests only): for each password the values
/// of the attempts in turn (the last one repeats), and the new PIN for ModifyPIN. A password
/// with no value is an entry the user cancels on the reader.
public final class SimulatedKeypad: @unchecked Sendable {
    private let lock = Lock()
    private var attempts: [PACEPasswordType: [String]]
    private var newPIN: String?
    /// How many times each password was asked for on the keypad.
    public private(set) var entries: [PACEPasswordType: Int] = [:]
    /// What the reader showed before each entry: the password kind, the CHAT, the certificate description.
    public var shown: [EstablishPACEChannelInput] { lock.withLock { inputs } }
    private var inputs: [EstablishPACEChannelInput] = []

    public init(pin: [String] = [], can: [String] = [], puk: [String] = [], newPIN: String? = nil) {
        attempts = [.pin: pin, .can: can, .puk: puk]
        self.newPIN = newPIN
    }

    /// The next value typed after the reader showed `input`; nil when the user cancels.
    func type(_ input: EstablishPACEChannelInput) -> Secret? {
        lock.withLock {
            let password = input.passwordType
            inputs.append(input)
            entries[password, default: 0] += 1
            guard var queue = attempts[password], let value = queue.first else { return nil }
            if queue.count > 1 { queue.removeFirst() }
            attempts[password] = queue
            return Secret(value)
        }
    }

    /// The new PIN typed (twice) for ModifyPIN; nil when the user cancels.
    func typeNewPIN() -> Secret? { lock.withLock { newPIN.map(Secret.init) } }
}
