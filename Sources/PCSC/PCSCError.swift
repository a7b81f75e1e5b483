/// A failure reported by the PC/SC service (pcsc-lite), with the next step for the user.
public enum PCSCError: Error, Equatable, Sendable, CustomStringConvertible {
    /// SCARD_E_NO_SERVICE (8010001D): pcscd is not running.
    case serviceNotRunning
    /// SCARD_E_NO_READERS_AVAILABLE (8010002E).
    case noReaders
    /// SCARD_E_UNKNOWN_READER (80100009) or SCARD_E_READER_UNAVAILABLE (80100017).
    case readerUnavailable(String)
    /// SCARD_E_NO_SMARTCARD (8010000C) or SCARD_W_REMOVED_CARD (80100069).
    case cardRemoved
    /// SCARD_E_SHARING_VIOLATION (8010000B): another program holds the card exclusively.
    case sharingViolation
    /// SCARD_W_UNRESPONSIVE_CARD (80100066) or SCARD_W_UNPOWERED_CARD (80100067).
    case cardUnresponsive
    /// SCARD_W_RESET_CARD (80100068): another program reset the card.
    case cardReset
    /// SCARD_E_TIMEOUT (8010000A).
    case timeout
    /// SCARD_E_CANCELLED (80100002): the wait was cancelled (by eid itself).
    case cancelled
    /// SCARD_E_NOT_TRANSACTED (80100016), SCARD_F_COMM_ERROR (80100013): the reader failed.
    case communicationFailed(function: String, code: UInt32)
    /// Any other result code.
    case failed(function: String, code: UInt32)

    /// Maps a pcsc-lite result code of `function`.
    public init(code: UInt32, function: String, reader: String? = nil) {
        switch code {
        case 0x8010_001D: self = .serviceNotRunning
        case 0x8010_002E: self = .noReaders
        case 0x8010_0009, 0x8010_0017: self = .readerUnavailable(reader ?? "")
        case 0x8010_000C, 0x8010_0069: self = .cardRemoved
        case 0x8010_000B: self = .sharingViolation
        case 0x8010_0066, 0x8010_0067: self = .cardUnresponsive
        case 0x8010_0068: self = .cardReset
        case 0x8010_000A: self = .timeout
        case 0x8010_0002: self = .cancelled
        case 0x8010_0016, 0x8010_0013, 0x8010_000F: self = .communicationFailed(function: function, code: code)
        default: self = .failed(function: function, code: code)
        }
    }

    public var description: String {
        switch self {
        case .serviceNotRunning:
            return "pcscd, the PC/SC smart card service, is not running (SCARD_E_NO_SERVICE, 0x8010001D). "
                + "Start it: 'sudo systemctl start pcscd.socket', or without systemd 'sudo pcscd'."
        case .noReaders:
            return "no card reader found (SCARD_E_NO_READERS_AVAILABLE, 0x8010002E). Connect a reader; "
                + "USB readers need the 'libccid' driver (Debian: apt install libccid)."
        case .readerUnavailable(let name):
            return "the card reader \(name.isEmpty ? "" : "'\(name)' ")is no longer available "
                + "(SCARD_E_READER_UNAVAILABLE); reconnect it and try again"
        case .cardRemoved:
            return "the card was removed (SCARD_W_REMOVED_CARD); put it back on the reader and try again"
        case .sharingViolation:
            return "another program holds the card (SCARD_E_SHARING_VIOLATION); close it and try again"
        case .cardUnresponsive:
            return "the card does not answer (SCARD_W_UNRESPONSIVE_CARD); place it flat on the reader and try again"
        case .cardReset:
            return "another program reset the card (SCARD_W_RESET_CARD); try again"
        case .timeout:
            return "the card reader did not answer in time (SCARD_E_TIMEOUT); reconnect it and try again"
        case .cancelled:
            return "the wait for the card reader was cancelled (SCARD_E_CANCELLED)"
        case .communicationFailed(let function, let code):
            return
                "communication with the card reader failed (\(function): 0x\(String(code, radix: 16, uppercase: true))); "
                + "reconnect the reader and try again"
        case .failed(let function, let code):
            return "the PC/SC service reported an error (\(function): 0x\(String(code, radix: 16, uppercase: true)))"
        }
    }
}
