import Online

extension TcTokenFetchFailure {
    /// Its line in the one table of reasons.
    public var reason: FailureReason {
        switch self {
        case .unavailable(let error): return .authTcTokenUnavailable(error)
        case .invalid(let error, _): return .authInvalidTcToken(error)
        }
    }
}
