import SmartCard

/// The pre-shared keys of TLS-2 by PSK identity (= SessionIdentifier of the TcToken), shared
/// between the front end, which registers a key when it hands out a TcToken, and OpenSSL's PSK
/// callback, which looks it up during the handshake. Bounded: the oldest key goes first.
public final class PSKStore: Sendable {
    private struct Entry {
        var key: [UInt8]
        var order: Int
    }
    private struct State {
        var entries: [String: Entry] = [:]
        var next = 0
    }
    private let state = Locked(State())
    public let capacity: Int

    public init(capacity: Int = 10_000) { self.capacity = capacity }

    /// Registers `key` for `identity` (replacing any earlier one).
    public func register(_ key: [UInt8], for identity: String) {
        state.withLock { state in
            if state.entries.count >= capacity, let oldest = state.entries.min(by: { $0.value.order < $1.value.order })
            {
                state.entries[oldest.key] = nil
            }
            state.entries[identity] = Entry(key: key, order: state.next)
            state.next += 1
        }
    }

    /// The key for `identity`, if one is registered.
    public func key(for identity: String) -> [UInt8]? { state.withLock { $0.entries[identity]?.key } }

    /// Forgets the key for `identity`.
    public func remove(_ identity: String) { state.withLock { _ = $0.entries.removeValue(forKey: identity) } }
}
