import SmartCard

/// A `CardChannel` straight into a `SimulatedEIDCard`, for in-process use (the client's
/// reader named "Simulator"). Powers the card on when created; counts transmitted APDUs.
public final class SimulatedCardChannel: CardChannel, @unchecked Sendable {
    public static let readerName = "Simulator"

    public let card: SimulatedEIDCard
    private let lock = Lock()
    private var count = 0

    public init(card: SimulatedEIDCard = SimulatedEIDCard()) {
        self.card = card
        card.powerOn()
    }

    public var supportsExtendedLength: Bool { true }

    /// How many APDUs went through this channel.
    public var transmitCount: Int { lock.withLock { count } }

    /// A card without power does not answer: that surfaces as `CardError.cardRemoved`.
    public func transmit(_ command: CommandAPDU) throws -> ResponseAPDU {
        try ResponseAPDU(bytes: transmit(encoded: command.bytes))
    }

    /// The bytes go to the card as they are.
    public func transmit(encoded: [UInt8]) throws -> [UInt8] {
        lock.withLock { count += 1 }
        let response = card.respond(to: encoded)
        guard !response.isEmpty else { throw CardError.cardRemoved }
        guard response.count >= 2 else {
            throw CardError.malformedResponse("\(response.count) byte(s), need at least 2")
        }
        return response
    }
}
