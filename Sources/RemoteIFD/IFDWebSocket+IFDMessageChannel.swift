import IFDTransport

/// The real channel: IFDTransport's WebSocket over TLS 1.2.
extension IFDWebSocket: IFDMessageChannel {
    public func isTimeout(_ error: any Error) -> Bool {
        if case IFDTransportError.timedOut(.receive, _)? = error as? IFDTransportError { return true }
        return false
    }
}
