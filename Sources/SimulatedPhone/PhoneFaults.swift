/// Faults the simulated phone plays for the client's tests, counted in IFDTransmit messages of one
/// connection: the phone vanishes (the TCP connection drops without a TLS or WebSocket close), stops
/// answering (the connection stays open), or the card leaves the reader.
public struct PhoneFaults: Equatable, Sendable {
    /// Drop the connection when IFDTransmit number N+1 arrives (after N answered).
    public var vanishAfterTransmits: Int?
    /// Stop answering when IFDTransmit number N+1 arrives.
    public var stallAfterTransmits: Int?
    /// Take the card off the reader after answering IFDTransmit number N.
    public var removeCardAfterTransmits: Int?

    public init(vanishAfterTransmits: Int? = nil, stallAfterTransmits: Int? = nil, removeCardAfterTransmits: Int? = nil)
    {
        self.vanishAfterTransmits = vanishAfterTransmits
        self.stallAfterTransmits = stallAfterTransmits
        self.removeCardAfterTransmits = removeCardAfterTransmits
    }

    /// What the transport does after a message.
    public enum Action: Equatable, Sendable {
        case none
        /// Close the TCP connection at once, without TLS close_notify or WebSocket close.
        case vanish
        /// Answer nothing more on this connection.
        case stall
    }

    /// The fault for the `count`th IFDTransmit (1-based) before it is answered, if one applies.
    func beforeTransmit(_ count: Int) -> Action? {
        if let n = vanishAfterTransmits, count > n { return .vanish }
        if let n = stallAfterTransmits, count > n { return .stall }
        return nil
    }

    /// Whether the card leaves after the `count`th IFDTransmit.
    func removesCard(after count: Int) -> Bool { removeCardAfterTransmits == count }
}
