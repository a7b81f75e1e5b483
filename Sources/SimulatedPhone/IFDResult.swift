/// ResultMajor/ResultMinor of the phone's responses (TR-03112-6 IFD Service; the eCard-API URIs, as AusweisApp
/// sends them): `ok` carries no minor (JSON null), every error one of these minors.
public enum IFDResult: Equatable, Sendable {
    case ok
    case error(Minor)

    public static let majorOK = "http://www.bsi.bund.de/ecard/api/1.1/resultmajor#ok"
    public static let majorError = "http://www.bsi.bund.de/ecard/api/1.1/resultmajor#error"

    /// The minors a phone answers with.
    public enum Minor: String, Sendable, CaseIterable {
        case unknownError = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/al/common#unknownError"
        case unknownAPIFunction = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/al/common#unknownAPIFunction"
        case timeoutError = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/ifdl/common#timeoutError"
        case unknownSlot = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/ifdl/terminal#unknownSlot"
        case invalidSlotHandle = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/ifdl/common#invalidSlotHandle"
        case cancellationByUser = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/ifdl#cancellationByUser"
        case sharingViolation = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/ifdl/terminal#IFDSharingViolation"
        case noCard = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/ifdl/terminal#noCard"
        case repeatedDataMismatch = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/ifdl/IO#repeatedDataMismatch"
        case unknownPINFormat = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/ifdl/IO#unknownPINFormat"
    }

    var major: String { self == .ok ? Self.majorOK : Self.majorError }

    var minor: String? {
        if case .error(let minor) = self { return minor.rawValue }
        return nil
    }
}
