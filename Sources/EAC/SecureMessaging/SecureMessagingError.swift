import EIDCrypto
import SmartCard

/// What can go wrong in secure messaging. Every one of these ends the session: the channel
/// refuses later commands with `channelClosed`.
public enum SecureMessagingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The channel was closed by an earlier error (or explicitly); PACE must run again.
    case channelClosed
    /// The card answered without secure messaging (typically 6987/6988: it found an SM error
    /// in the command and dropped the session).
    case responseNotProtected(StatusWord)
    /// The protected response or command does not have the data objects it must have.
    case malformedResponse
    case malformedCommand
    /// The status word protected in DO'99 is not the plain status word of the response: the
    /// plain one was changed on the way.
    case statusWordMismatch(protected: StatusWord, plain: StatusWord)
    /// The cryptographic checksum (DO'8E) is wrong.
    case macMismatch
    /// The encrypted data (DO'87) does not decrypt to correctly padded data.
    case decryptionFailed
    /// The protected command would not fit an APDU (or needs extended length the channel lacks).
    case commandTooLong
    /// The underlying channel failed.
    case transport(CardError)
    /// A crypto primitive failed.
    case crypto(CryptoError)

    public var description: String {
        switch self {
        case .channelClosed: return "the secure messaging channel is closed"
        case .responseNotProtected(let sw): return "the card answered without secure messaging: \(sw)"
        case .malformedResponse: return "malformed secure messaging response"
        case .malformedCommand: return "malformed secure messaging command"
        case .statusWordMismatch(let protected, let plain):
            return "the secure messaging status word \(protected) differs from the plain status word \(plain)"
        case .macMismatch: return "secure messaging MAC mismatch"
        case .decryptionFailed: return "secure messaging data does not decrypt"
        case .commandTooLong: return "the protected command is too long for the channel"
        case .transport(let e): return "secure messaging transport: \(e)"
        case .crypto(let e): return "secure messaging: \(e)"
        }
    }
}
