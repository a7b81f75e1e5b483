import Online

/// Why no refresh URL could be determined (docs/protocol.md, "Refresh address check"); AusweisApp reports
/// each as al/common#communicationError and the browser goes to the CommunicationErrorAddress. No case
/// carries text from the server.
public enum RefreshAddressError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The RefreshAddress or a redirect's Location is not https.
    case notHTTPS
    /// A hop could not be reached or its TLS failed.
    case hopFailed(PAOSTransportError)
    /// A hop that is not the service's origin answered with something else than 302, 303 or 307.
    case unexpectedStatus(Int)
    /// A redirect without a Location.
    case missingLocation
    /// A hop's TLS certificate does not hash into the description's CommCertificates.
    case certificateNotInDescription
    /// More redirects than allowed.
    case tooManyRedirects(limit: Int)

    /// AusweisApp's FailureCode reason for it.
    public var name: String {
        switch self {
        case .notHTTPS: return "Check_Refresh_Address_No_Https_Scheme"
        case .missingLocation: return "Check_Refresh_Address_Empty"
        case .unexpectedStatus: return "Check_Refresh_Address_Invalid_Http_Response"
        case .hopFailed: return "Check_Refresh_Address_Unknown_Network_Error"
        case .certificateNotInDescription: return "Check_Refresh_Address_Hash_Missing_In_Certificate"
        case .tooManyRedirects: return "Check_Refresh_Address_Invalid_Http_Response"
        }
    }

    public var description: String {
        switch self {
        case .notHTTPS: return "the service's refresh address leads to an address that is not https"
        case .hopFailed(let error): return "the service's refresh address could not be checked: \(error)"
        case .unexpectedStatus(let status):
            return "the service's refresh address answered with HTTP status \(status) instead of a redirect"
        case .missingLocation: return "the service's refresh address redirects without a Location"
        case .certificateNotInDescription:
            return "the TLS certificate of the service's refresh address is not in its certificate description"
        case .tooManyRedirects(let limit): return "the service's refresh address redirects more than \(limit) times"
        }
    }
}
