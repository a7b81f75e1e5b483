import SmartCard

/// What the channel's handlers (on the event loop) tell the blocked caller of `IFDWebSocket`: the handshake's
/// result, the upgrade, each text message, the end. Every wait is bounded by a `Deadline`; the first failure
/// or end is kept, messages that came before it are still handed out.
final class IFDChannelState: @unchecked Sendable {
    // @unchecked: every field is reached under `condition`'s lock.
    private enum Phase {
        case connecting
        case open
        case ended(IFDTransportError)
    }
    private let condition = Condition()
    private var phase = Phase.connecting
    private var messages: [String] = []
    private var peerCertificate: [UInt8] = []
    /// The most unread messages kept; a phone that floods is cut off.
    static let maximumQueued = 256

    /// The TLS handshake is done and checked.
    func established(peerCertificate der: [UInt8]) {
        update { $0.peerCertificate = der }
    }

    /// The WebSocket is open.
    func opened() {
        update { state in
            if case .connecting = state.phase { state.phase = .open }
        }
    }

    func received(_ text: String) {
        update { state in
            guard case .open = state.phase else { return }
            guard state.messages.count < Self.maximumQueued else {
                state.phase = .ended(.protocolViolation("more than \(Self.maximumQueued) unread messages"))
                return
            }
            state.messages.append(text)
        }
    }

    /// The connection failed or ended; the first reason stays.
    func end(_ reason: IFDTransportError) {
        update { state in
            if case .ended = state.phase { return }
            state.phase = .ended(reason)
        }
    }

    /// The channel closed: an end without a reason of its own is the phone closing it.
    func channelClosed() { end(.closed(code: nil)) }

    /// Whether the channel ended (and why).
    var endReason: IFDTransportError? {
        condition.lock()
        defer { condition.unlock() }
        if case .ended(let reason) = phase { return reason }
        return nil
    }

    /// Waits until the WebSocket is open: the phone's certificate (DER), or the failure.
    func waitUntilOpen(_ deadline: Deadline, timeout: Double) throws(IFDTransportError) -> [UInt8] {
        condition.lock()
        defer { condition.unlock() }
        while true {
            switch phase {
            case .open: return peerCertificate
            case .ended(let reason): throw reason
            case .connecting:
                guard !deadline.hasPassed else { throw .timedOut(.open, seconds: timeout) }
                condition.wait(seconds: deadline.remaining)
            }
        }
    }

    /// The next text message; the end once every message before it was taken; `.timedOut(.receive)` when
    /// none came in time (the connection stays open).
    func next(_ deadline: Deadline, timeout: Double) throws(IFDTransportError) -> String {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if !messages.isEmpty { return messages.removeFirst() }
            if case .ended(let reason) = phase { throw reason }
            guard !deadline.hasPassed else { throw .timedOut(.receive, seconds: timeout) }
            condition.wait(seconds: deadline.remaining)
        }
    }

    private func update(_ body: (IFDChannelState) -> Void) {
        condition.lock()
        body(self)
        condition.broadcast()
        condition.unlock()
    }
}
