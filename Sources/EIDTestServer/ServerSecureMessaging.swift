import EAC
import SmartCard

/// The server's own secure messaging after Chip Authentication (docs/protocol.md, "Chip Authentication"): the
/// CA session keys with SSC 0, commands protected a batch at a time for one Transmit and the
/// responses unprotected (MAC checked) as they come back. The send sequence counter counts
/// every command and every response, so the i-th command of a batch uses SSC + 2i + 1 and its
/// response SSC + 2i + 2; a batch the client cut short leaves the counter after the last
/// response it returned, as on the card.
struct ServerSecureMessaging: Sendable {
    let keys: SessionKeys
    /// The counter before the next command.
    private(set) var ssc = [UInt8](repeating: 0, count: 16)

    init(keys: SessionKeys) { self.keys = keys }

    /// The protected form of each command, as the card will receive them one after another.
    func protect(_ commands: [CommandAPDU]) throws -> [CommandAPDU] {
        try commands.enumerated().map { index, command in
            var session = SecureMessagingSession(keys: keys, ssc: Self.adding(2 * index, to: ssc))
            return try session.protect(command)
        }
    }

    /// The plain responses of a batch (at most as many as were sent), MACs checked; moves the
    /// counter past them. Throws `SecureMessagingError` for a response that fails.
    mutating func unprotect(_ responses: [ResponseAPDU]) throws -> [ResponseAPDU] {
        var plain: [ResponseAPDU] = []
        for (index, response) in responses.enumerated() {
            var session = SecureMessagingSession(keys: keys, ssc: Self.adding(2 * index + 1, to: ssc))
            plain.append(try session.unprotect(response))
        }
        ssc = Self.adding(2 * responses.count, to: ssc)
        return plain
    }

    /// `counter` + `n`, big-endian, wrapping.
    static func adding(_ n: Int, to counter: [UInt8]) -> [UInt8] {
        var result = counter
        var carry = n
        for i in stride(from: result.count - 1, through: 0, by: -1) where carry > 0 {
            let sum = Int(result[i]) + carry
            result[i] = UInt8(sum & 0xFF)
            carry = sum >> 8
        }
        return result
    }
}
