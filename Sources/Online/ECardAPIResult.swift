/// The eCard-API result of a workflow (BSI TR-03112): what a PAOS message's dss:Result carries
/// in ResultMajor and ResultMinor, what the SDK's AUTH message carries in `result.major` and
/// `result.minor`, and how AusweisApp reports each failure (docs/protocol.md, "Result codes").
///
/// It lives in `Online`, the lowest layer that speaks these codes (PAOS), so that the SDK and
/// the workflows above use the same type.
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

    /// ResultMajor: the full URI is the raw value. (`#nextRequest` and the DSS `Pending` exist
    /// in other profiles; neither occurs in online authentication, so they are not accepted.)
    public enum Major: String, Sendable, CaseIterable {
        case ok = "http://www.bsi.bund.de/ecard/api/1.1/resultmajor#ok"
        case warning = "http://www.bsi.bund.de/ecard/api/1.1/resultmajor#warning"
        case error = "http://www.bsi.bund.de/ecard/api/1.1/resultmajor#error"
    }

    /// ResultMinor (TR-03112-1, as AusweisApp and Open eCard use them): the full URI is the raw
    /// value, in the spelling eid sends. `init(uri:)` also takes the other spellings in use.
    public enum Minor: String, Sendable, CaseIterable {
        // al/common
        case unknownError = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/al/common#unknownError"
        case noPermission = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/al/common#noPermission"
        case internalError = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/al/common#internalError"
        case parameterError = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/al/common#parameterError"
        case communicationError = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/al/common#communicationError"
        case unknownAPIFunction = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/al/common#unknownAPIFunction"
        case notInitialized = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/al/common#notInitialized"
        case warningConnectionDisconnected =
            "http://www.bsi.bund.de/ecard/api/1.1/resultminor/al/common#warningConnectionDisconnected"
        case sessionTerminatedWarning =
            "http://www.bsi.bund.de/ecard/api/1.1/resultminor/al/common#SessionTerminatedWarning"
        case incorrectParameter = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/al/common#incorrectParameter"
        // dp (dispatcher)
        case trustedChannelEstablishmentFailed =
            "http://www.bsi.bund.de/ecard/api/1.1/resultminor/dp#trustedChannelEstablishmentFailed"
        /// AusweisApp's spelling; Open eCard writes `dp#timeoutError` (both are read).
        case timeout = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/dp#timeout"
        case dispatcherCommunicationError = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/dp#communicationError"
        case nodeNotReachable = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/dp#nodeNotReachable"
        case unknownChannelHandle = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/dp#unknownChannelHandle"
        case unknownCipherSuite = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/dp#unknownCipherSuite"
        case unknownProtocol = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/dp#unknownProtocol"
        case unknownWebserviceBinding =
            "http://www.bsi.bund.de/ecard/api/1.1/resultminor/dp#unknownWebserviceBinding"
        // il (identity layer)
        case invalidCertificatePath =
            "http://www.bsi.bund.de/ecard/api/1.1/resultminor/il/signature#invalidCertificatePath"
        case keyGenerationNotPossible =
            "http://www.bsi.bund.de/ecard/api/1.1/resultminor/il/key#keyGenerationNotPossible"
        // sal (service access layer)
        case cancellationByUser = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/sal#cancellationByUser"
        case invalidKey = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/sal#invalidKey"
        case securityConditionNotSatisfied =
            "http://www.bsi.bund.de/ecard/api/1.1/resultminor/sal#securityConditionNotSatisfied"
        /// AusweisApp writes `sal/mEAC#…`, Open eCard `sal/EAC#…` (both are read).
        case ageVerificationFailedWarning =
            "http://www.bsi.bund.de/ecard/api/1.1/resultminor/sal/mEAC#AgeVerificationFailedWarning"
        case communityVerificationFailedWarning =
            "http://www.bsi.bund.de/ecard/api/1.1/resultminor/sal/mEAC#CommunityVerificationFailedWarning"
        case documentValidityVerificationFailed =
            "http://www.bsi.bund.de/ecard/api/1.1/resultminor/sal/mEAC#DocumentValidityVerificationFailed"
        // ifdl (interface device layer)
        case readerCancellationByUser = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/ifdl#cancellationByUser"
        case readerTimeoutError = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/ifdl/common#timeoutError"
        case invalidSlotHandle = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/ifdl/common#invalidSlotHandle"
        case noCard = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/ifdl/terminal#noCard"
        case unknownSlot = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/ifdl/terminal#unknownSlot"
        case ifdSharingViolation = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/ifdl/terminal#IFDSharingViolation"
        case repeatedDataMismatch = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/ifdl/IO#repeatedDataMismatch"
        case unknownPINFormat = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/ifdl/IO#unknownPINFormat"

        /// The code for a URI in any spelling in use (docs/protocol.md, "Result codes": `dp#timeoutError`,
        /// `sal/EAC#…`); nil for a URI that is not in the table.
        public init?(uri: String) {
            if let minor = Minor(rawValue: uri) {
                self = minor
                return
            }
            let prefix = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/"
            switch uri {
            case prefix + "dp#timeoutError": self = .timeout
            case prefix + "sal/EAC#AgeVerificationFailedWarning": self = .ageVerificationFailedWarning
            case prefix + "sal/EAC#CommunityVerificationFailedWarning": self = .communityVerificationFailedWarning
            case prefix + "sal/EAC#DocumentValidityVerificationFailed": self = .documentValidityVerificationFailed
            default: return nil
            }
        }
    }
}
