/// What a `VPCDConnection` reports (eid-sim prints each as one line on stderr).
public enum VPCDEvent: Equatable, Sendable, CustomStringConvertible {
    /// Connected: vpcd's reader now has a card.
    case connected(VPCDEndpoint)
    /// The connection could not be made (`reason`: "refused the connection", …); the next
    /// attempt comes after `retryIn` seconds.
    case connectFailed(VPCDEndpoint, reason: String, retryIn: Double)
    /// vpcd closed the connection or it broke; reconnecting after `retryIn` seconds.
    case disconnected(VPCDEndpoint, retryIn: Double)
    /// The test-only `vanishAfter` was reached: the card left the reader after this many
    /// command APDUs and does not come back.
    case vanished(after: Int)
    /// A one-byte message that is not a vpcd control code (ignored).
    case unknownControlCode(UInt8)

    public var description: String {
        switch self {
        case .connected(let e):
            return "card inserted into vpcd at \(e)"
        case .connectFailed(let e, let reason, let delay):
            return "vpcd at \(e) \(reason); retrying in \(VPCDEvent.seconds(delay))"
        case .disconnected(let e, let delay):
            return "vpcd at \(e) closed the connection (card removed); reconnecting in \(VPCDEvent.seconds(delay))"
        case .vanished(let count):
            return "the card left the reader after \(count) command APDUs (--vanish-after)"
        case .unknownControlCode(let code):
            return "ignored unknown vpcd control code \(code)"
        }
    }

    static func seconds(_ s: Double) -> String {
        let tenths = (s * 10).rounded() / 10
        return tenths == tenths.rounded() ? "\(Int(tenths)) s" : "\(tenths) s"
    }
}
