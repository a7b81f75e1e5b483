import SmartCard

/// CardInfoLocator (TR-03110-3, A.1.1.5): where the card's CardInfo is described.
public struct CardInfoLocator: Equatable, Sendable {
    public var url: String
    /// The DER of the optional efCardInfo FileID, kept as read.
    public var efCardInfo: [UInt8]?

    public init(url: String, efCardInfo: [UInt8]? = nil) {
        self.url = url
        self.efCardInfo = efCardInfo
    }
}
