/// Where the browser goes at the end of an authentication (docs/protocol.md, "Result on the refresh
/// address"): an address as the TcToken had it (the checked RefreshAddress or the CommunicationErrorAddress)
/// and the result parameters for it.
public struct RefreshTarget: Equatable, Sendable {
    /// The address without the result: what AusweisApp's SDK gives in the final AUTH's `url`.
    public var address: String
    public var result: RefreshResult

    /// The address with the result parameters: the browser's 303, the terminal's "Continue at"
    /// and `--open`.
    public var url: String { result.appended(to: address) }

    public init(address: String, result: RefreshResult) {
        self.address = address
        self.result = result
    }
}
