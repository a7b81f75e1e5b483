/// The eCard-API result of a workflow (BSI TR-03112), as the SDK's AUTH message carries it in
/// `result.major` and `result.minor`, and as AusweisApp reports each failure.
public struct ECardAPIResult: Equatable, Sendable {
    public var major: Major
    /// Nil for `.ok`.
    public var minor: Minor?

    public init(major: Major, minor: Minor? = nil) {
        self.major = major
        self.minor = minor
    }

    public static let ok = ECardAPIResult(major: .ok)

    public static func error(_ minor: Minor) -> ECardAPIResult { ECardAPIResult(major: .error, minor: minor) }

    /// ResultMajor: the full URI is the raw value.
    public enum Major: String, Sendable, CaseIterable {
        case ok = "http://www.bsi.bund.de/ecard/api/1.1/resultmajor#ok"
        case warning = "http://www.bsi.bund.de/ecard/api/1.1/resultmajor#warning"
        case error = "http://www.bsi.bund.de/ecard/api/1.1/resultmajor#error"
    }

    /// The ResultMinor codes a client produces (TR-03112-1; which failure gives which as
    /// AusweisApp's ECardApiResult does): the full URI is the raw value.
    public enum Minor: String, Sendable, CaseIterable {
        case unknownError = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/al/common#unknownError"
        case noPermission = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/al/common#noPermission"
        case internalError = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/al/common#internalError"
        case parameterError = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/al/common#parameterError"
        case communicationError = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/al/common#communicationError"
        case trustedChannelEstablishmentFailed =
            "http://www.bsi.bund.de/ecard/api/1.1/resultminor/dp#trustedChannelEstablishmentFailed"
        case invalidCertificatePath =
            "http://www.bsi.bund.de/ecard/api/1.1/resultminor/il/signature#invalidCertificatePath"
        case cancellationByUser = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/sal#cancellationByUser"
    }
}
