import SmartCard

/// The context with one phone over one channel (IFDEstablishContext to close): requests and
/// their answers, and the slots as the IFDStatus messages tell them, pushed ones included. One
/// request or poll uses the channel at a time; every wait is bounded. A channel that breaks
/// closes the session: its slots are gone.
public final class IFDSession: @unchecked Sendable {
    /// The phone's name as stored (for errors and reader names).
    public let phoneName: String
    /// The name the phone gave in IFDEstablishContextResponse.
    public let ifdName: String
    let contextHandle: String
    let timeouts: IFDTimeouts
    private let channel: any IFDMessageChannel
    private let channelLock = Lock()
    private let state = Locked(SlotTable())

    init(
        channel: any IFDMessageChannel, phoneName: String, ifdName: String, contextHandle: String, timeouts: IFDTimeouts
    ) {
        self.channel = channel
        self.phoneName = phoneName
        self.ifdName = ifdName
        self.contextHandle = contextHandle
        self.timeouts = timeouts
    }

    /// Sends IFDEstablishContext (protocol v2, `udName`: this computer as the phone shows it) and
    /// reads the answer; a refusal closes the channel and throws `contextRefused`.
    public static func establish(
        channel: any IFDMessageChannel, phoneName: String, udName: String, timeouts: IFDTimeouts = IFDTimeouts()
    ) throws -> IFDSession {
        let session = IFDSession(
            channel: channel, phoneName: phoneName, ifdName: phoneName, contextHandle: "", timeouts: timeouts)
        let answer: IFDIncomingMessage
        do {
            answer = try session.request(.establishContext(udName: udName), timeout: timeouts.response)
        } catch RemoteIFDError.failed(_, let result), RemoteIFDError.phoneError(_, let result) {
            channel.close()
            throw RemoteIFDError.contextRefused(phone: phoneName, result)
        } catch {
            channel.close()
            throw error
        }
        guard let handle = answer.contextHandle, !handle.isEmpty else {
            channel.close()
            throw RemoteIFDError.malformedMessage("ContextHandle is missing")
        }
        let name = (try? answer.string("IFDName")) ?? phoneName
        return IFDSession(
            channel: channel, phoneName: phoneName, ifdName: name, contextHandle: handle, timeouts: timeouts)
    }

    /// Asks for the status of every slot and waits for the first IFDStatus, then briefly for more.
    public func refreshStatus() throws {
        try exchange(.getStatus(slotName: ""), timeout: timeouts.response)
        while try poll(timeout: timeouts.moreStatus) {}
    }

    /// The slots as last told, in the order they first appeared.
    public var slots: [IFDSlot] { state.withLock { $0.slots } }

    public var isClosed: Bool { state.withLock { $0.closed } }

    /// Sends `request` and returns its answer (ok or not). IFDStatus messages that arrive
    /// meanwhile update the slots; IFDError ends the wait with `phoneError`; a broken channel
    /// closes the session and throws `connectionLost`, no answer in time closes it and throws
    /// `timedOut`.
    @discardableResult
    public func exchange(_ request: IFDRequest, timeout: Double) throws -> IFDIncomingMessage {
        try channelLock.withLock {
            try ensureOpen()
            do {
                try channel.send(text: request.text(contextHandle: contextHandle), timeout: timeout)
            } catch {
                throw lost()
            }
            let deadline = Deadline(secondsFromNow: timeout)
            while true {
                guard let message = try next(timeout: deadline.remaining) else {
                    // A late answer would be taken for the next request's: the phone is given up.
                    close()
                    throw RemoteIFDError.timedOut(waitingFor: request.responseType ?? .status, seconds: timeout)
                }
                if message.type == .error { throw RemoteIFDError.phoneError(request.type, message.result ?? .ok) }
                if message.type == (request.responseType ?? .status) { return message }
            }
        }
    }

    /// `exchange`, and an answer whose result is not ok throws `failed`.
    @discardableResult
    public func request(_ request: IFDRequest, timeout: Double) throws -> IFDIncomingMessage {
        let answer = try exchange(request, timeout: timeout)
        if let result = answer.result, !result.isOK { throw RemoteIFDError.failed(request.type, result) }
        return answer
    }

    /// The most messages one `poll` takes.
    static let drainLimit = 32

    /// Waits at most `timeout` seconds for a message from the phone (a pushed IFDStatus) and takes
    /// the ones already waiting after it; returns whether a slot changed. A broken channel closes
    /// the session (a change).
    @discardableResult
    public func poll(timeout: Double) throws -> Bool {
        try channelLock.withLock {
            if state.withLock({ $0.closed }) { return false }
            let before = state.withLock { $0.changes }
            do {
                // The first message within `timeout`, then whatever else is already there.
                var wait = timeout
                for _ in 0..<Self.drainLimit {
                    guard try next(timeout: wait) != nil else { break }
                    wait = 0
                }
            } catch RemoteIFDError.connectionLost {
                return true
            } catch is RemoteIFDError {
                // A malformed or foreign frame while nobody waits for an answer: not a change.
            }
            return state.withLock { $0.changes } != before
        }
    }

    /// Closes the channel; the session's slots are gone.
    public func close() {
        state.withLock { $0.closed = true }
        channel.close()
    }

    /// The next message of this context, nil when none arrives in time. IFDStatus updates the
    /// slots before it is returned; messages of another context are skipped.
    private func next(timeout: Double) throws -> IFDIncomingMessage? {
        let deadline = Deadline(secondsFromNow: timeout)
        while true {
            let text: String
            do {
                text = try channel.receive(timeout: deadline.remaining)
            } catch {
                if channel.isTimeout(error) { return nil }
                throw lost()
            }
            let message = try IFDIncomingMessage(text: text)
            if message.type != .establishContextResponse && message.type != .error
                && message.contextHandle != contextHandle
            {
                if deadline.hasPassed { return nil }
                continue
            }
            if message.type == .status {
                let status = try IFDStatus(message)
                state.withLock { $0.update(status) }
            }
            return message
        }
    }

    private func ensureOpen() throws {
        if state.withLock({ $0.closed }) { throw RemoteIFDError.connectionLost(phone: phoneName) }
    }

    private func lost() -> RemoteIFDError {
        close()
        return .connectionLost(phone: phoneName)
    }
}
