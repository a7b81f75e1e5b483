import EIDCrypto
import SmartCard

/// What can go wrong in PACE (BSI TR-03110-2, 3.2). Steps are numbered as the General
/// Authenticate commands: 1 nonce, 2 mapping, 3 key agreement, 4 mutual authentication.
public enum PACEError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The protocol identifier is not a PACE protocol this module implements.
    case unsupportedProtocol(OID)
    /// The domain parameter id names no supported elliptic curve (nil: the PACEInfo gives no
    /// standardized domain parameter id).
    case unsupportedDomainParameter(Int?)
    /// The PACEInfo names proprietary domain parameters (id 32 and up, described by a
    /// PACEDomainParameterInfo), which eid does not run.
    case proprietaryDomainParameters(Int)
    /// No PACEInfo of the card's EF.CardAccess is one eid can run; `offered` lists them all.
    case noRunnablePACE(offered: [PACEInfo])
    /// MSE:Set AT was refused with this status word (9000, 63Cx and 6283 are not failures).
    case setAuthenticationTemplateFailed(StatusWord)
    /// General Authenticate step `step` was answered with this status word. A wrong password
    /// shows up here at step 4 as 63Cx, with x the attempts left.
    case generalAuthenticateFailed(step: Int, StatusWord)
    /// The response to General Authenticate step `step` is not the data object it must carry,
    /// or its content is unusable (wrong nonce length, not a point on the curve).
    case malformedResponse(step: Int)
    /// A command received by the card side is malformed (for the software card).
    case malformedCommand(step: Int)
    /// The mapping produced an unusable generator, or both sides' ephemeral keys are the same.
    case invalidKeyAgreement(step: Int)
    /// The card's authentication token (or, on the card side, the terminal's) is wrong.
    case tokenMismatch
    /// A crypto primitive failed for a reason other than the card's data.
    case crypto(CryptoError)

    /// The status word the card gave, if the failure carries one.
    public var statusWord: StatusWord? {
        switch self {
        case .setAuthenticationTemplateFailed(let sw), .generalAuthenticateFailed(_, let sw): return sw
        default: return nil
        }
    }

    /// The attempts left that the card reported (63Cx), if any.
    public var retryCounter: Int? { statusWord?.retryCounter }

    public var description: String {
        switch self {
        case .unsupportedProtocol(let oid): return "PACE protocol \(oid) is not supported"
        case .unsupportedDomainParameter(let id):
            return "PACE domain parameter \(id.map(String.init) ?? "(explicit)") is not supported"
        case .proprietaryDomainParameters(let id):
            return "the card's PACE uses proprietary domain parameters \(id), which eid cannot run"
        case .noRunnablePACE(let offered):
            guard !offered.isEmpty else { return "the card offers no PACE protocol (no PACEInfo in EF.CardAccess)" }
            let list = offered.map { info in
                let name = info.protocol.name ?? info.protocol.dotted
                let parameters = info.parameterID.map { " with domain parameters \($0)" } ?? ""
                return "\(name)\(parameters): \(info.whyNotRunnable ?? "runnable")"
            }
            return "eid cannot run any PACE variant the card offers: " + list.joined(separator: "; ")
        case .setAuthenticationTemplateFailed(let sw): return "MSE:Set AT for PACE failed: \(sw)"
        case .generalAuthenticateFailed(let step, let sw): return "PACE step \(step) failed: the card answered \(sw)"
        case .malformedResponse(let step): return "the card's answer to PACE step \(step) is malformed"
        case .malformedCommand(let step): return "the terminal's PACE step \(step) command is malformed"
        case .invalidKeyAgreement(let step): return "PACE key agreement failed at step \(step)"
        case .tokenMismatch: return "the PACE authentication token is wrong"
        case .crypto(let e): return "PACE: \(e)"
        }
    }
}
