import EAC
import SmartCard

/// The card's side of AES secure messaging (BSI TR-03110-3, appendix F) over EAC's
/// `SecureMessagingSession`, so that card and terminal run the same SSC, padding, encryption
/// and MAC code. PACE installs it with the new session keys and SSC 0.
///
/// A command that fails to unwrap is answered unprotected: 6987 when its SM data objects are
/// missing or not the expected ones (no DO'8E, an unknown DO, broken TLV), 6988 when they are
/// incorrect (wrong MAC, a cryptogram that does not decrypt); the card ends SM either way.
struct AESSecureMessaging: CardSecureMessaging {
    private var session: SecureMessagingSession

    init(keys: SessionKeys, ssc: [UInt8] = [UInt8](repeating: 0, count: 16)) {
        session = SecureMessagingSession(keys: keys, ssc: ssc)
    }

    /// The send sequence counter (for tests: it must run in step with the terminal's).
    var ssc: [UInt8] { session.ssc }

    mutating func unwrap(_ command: CommandAPDU) throws -> CommandAPDU {
        do {
            return try session.unprotect(command)
        } catch SecureMessagingError.malformedCommand {
            throw CardError.statusWord(.smDataObjectsMissing)
        } catch {
            throw CardError.statusWord(.smDataObjectsIncorrect)
        }
    }

    /// The protected response. Protecting only fails if AES itself fails; the card then has
    /// no usable session and answers 6F00 unprotected (the terminal ends SM on it).
    mutating func wrap(_ response: ResponseAPDU) -> ResponseAPDU {
        (try? session.protect(response)) ?? ResponseAPDU(statusWord: .noPreciseDiagnosis)
    }

    /// Continues with new keys and SSC 0 (after Chip Authentication).
    mutating func restart(keys: SessionKeys) {
        session.restart(keys: keys)
    }
}
