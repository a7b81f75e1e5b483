/// How long eid waits for a phone. AusweisApp waits 5 s for an answer (plus the PIN-pad time
/// for PACE and ModifyPIN, given by the caller here); the connection gets as long.
public struct IFDTimeouts: Equatable, Sendable {
    /// TLS and WebSocket handshake.
    public var open: Double
    /// The answer to a request (IFDEstablishContext, IFDConnect, IFDTransmit, …).
    public var response: Double
    /// After the first IFDStatus of an IFDGetStatus, how long to wait for the next slot's.
    public var moreStatus: Double
    /// The piece of a wait for pushed IFDStatus messages between two looks at `cancelWait`.
    public var pollSlice: Double

    public init(open: Double = 5, response: Double = 5, moreStatus: Double = 0.2, pollSlice: Double = 0.1) {
        self.open = open
        self.response = response
        self.moreStatus = moreStatus
        self.pollSlice = pollSlice
    }
}
