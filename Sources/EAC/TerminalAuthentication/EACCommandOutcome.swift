import SmartCard

/// What a card's answer to a Terminal or Chip Authentication command means (the tables at
/// `CommandAPDU.mseSetDST`, `psoVerifyCertificate`, `mseSetAT(terminalAuthentication:)`,
/// `externalAuthenticate`, `mseSetAT(chipAuthentication:)`, `generalAuthenticate(chipAuthentication:)`).
public enum EACCommandOutcome: Equatable, Sendable {
    /// 9000.
    case success
    /// 6300: a signature (certificate or terminal) did not verify.
    case verificationFailed
    /// 6700: the card or reader needs another length (extended length).
    case wrongLength
    /// 6982: the security status does not allow it.
    case securityStatusNotSatisfied
    /// 6985: a step is missing before this one.
    case conditionsNotSatisfied
    /// 6A80: the data is wrong.
    case wrongData
    /// 6A88: the referenced key or certificate is unknown.
    case referenceNotFound
    /// Any other status word.
    case other(StatusWord)

    public init(statusWord sw: StatusWord) {
        switch sw {
        case .success: self = .success
        case .authenticationFailed: self = .verificationFailed
        case .wrongLength: self = .wrongLength
        case .securityStatusNotSatisfied: self = .securityStatusNotSatisfied
        case .conditionsOfUseNotSatisfied: self = .conditionsNotSatisfied
        case .wrongData: self = .wrongData
        case .referenceDataNotFound: self = .referenceNotFound
        default: self = .other(sw)
        }
    }

    public var statusWord: StatusWord {
        switch self {
        case .success: return .success
        case .verificationFailed: return .authenticationFailed
        case .wrongLength: return .wrongLength
        case .securityStatusNotSatisfied: return .securityStatusNotSatisfied
        case .conditionsNotSatisfied: return .conditionsOfUseNotSatisfied
        case .wrongData: return .wrongData
        case .referenceNotFound: return .referenceDataNotFound
        case .other(let sw): return sw
        }
    }
}
