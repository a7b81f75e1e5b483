import Online
import SDK

/// The SDK's AUTH result (`AuthResult`) for how an authentication ended: the eCard-API result
/// as URIs, with a description of the minor, the sentence and the reason's stable name.
extension AuthResult {
    /// The AUTH message's result for `outcome`.
    public init(_ outcome: AuthOutcome) {
        guard outcome.result.major != .ok else {
            self.init(major: outcome.result.major.rawValue)
            return
        }
        self.init(
            major: outcome.result.major.rawValue, minor: outcome.result.minor?.rawValue, language: "en",
            description: outcome.result.minor.map(Self.minorDescription), message: outcome.reason?.sentence,
            reason: outcome.reason?.name)
    }

    /// A short description of a ResultMinor, for the AUTH message.
    static func minorDescription(_ minor: ECardAPIResult.Minor) -> String {
        switch minor {
        case .cancellationByUser, .readerCancellationByUser: return "The process has been cancelled."
        case .internalError: return "An internal error has occurred during processing."
        case .parameterError: return "There was some problem with a provided or omitted parameter."
        case .noPermission: return "Use of the function by the client application is not permitted."
        case .communicationError: return "A communication error occurred."
        case .trustedChannelEstablishmentFailed: return "The trusted channel could not be established."
        case .invalidCertificatePath: return "The certificate path is invalid."
        case .unknownAPIFunction: return "The API function is unknown."
        default: return "An error occurred."
        }
    }
}
