/// Why the TcToken fetch over TLS-1 (`OnlineClient`'s `TcTokenFetch`) brought no usable TcToken.
public enum TcTokenFetchFailure: Error {
    case unavailable(PAOSTransportError)
    /// The token was refused; a usable CommunicationErrorAddress it holds comes along.
    case invalid(TcTokenError, communicationErrorAddress: String?)

    /// Where the browser goes (AusweisApp's StateRedirectBrowser): a refused token's https
    /// CommunicationErrorAddress with communicationError; without a token, nowhere.
    public var url: RefreshTarget? {
        guard case .invalid(_, let address?) = self else { return nil }
        return RefreshTarget(address: address, result: .error(.communicationError))
    }
}
