import FoundationEssentials
import Online
import SmartCard

/// The server's sessions, many at once (parallel CI jobs), each isolated: created when a
/// TcToken is handed out, found again by the front end for every PAOS POST, and kept with their
/// results. Each session has a lock of its own, so sessions run side by side while one
/// session's messages are taken one at a time. The table and each slot guard their state with
/// a lock, hence @unchecked Sendable.
public final class EIDServerSessions: @unchecked Sendable {
    private final class Slot: @unchecked Sendable {
        let lock = Lock()
        var session: EIDServerSession
        init(_ session: EIDServerSession) { self.session = session }
    }

    private let lock = Lock()
    private var slots: [String: Slot] = [:]
    /// Identifiers in the order the sessions were created (the oldest finished ones go first).
    private var order: [String] = []
    private var lastFinished: String?
    private let clock: any SessionClock
    /// At most this many sessions are kept; the oldest finished ones make room.
    public let capacity: Int

    public init(clock: any SessionClock = MonotonicSessionClock(), capacity: Int = 1024) {
        self.clock = clock
        self.capacity = capacity
    }

    /// A fresh session identifier: a random UUID.
    public static func newSessionIdentifier() -> String { UUID().uuidString.lowercased() }

    /// Adds a session for `configuration` (its `sessionIdentifier` must be new); throws when the
    /// certificates its faults need cannot be issued or the table is full of running sessions.
    public func create(_ configuration: SessionConfiguration) throws(EIDServerSessionsError) {
        let session: EIDServerSession
        do { session = try EIDServerSession(configuration: configuration, clock: clock) } catch {
            throw .cannotIssue(error)
        }
        let refusal = lock.withLock { () -> EIDServerSessionsError? in
            guard slots[configuration.sessionIdentifier] == nil else { return .duplicateSession }
            if slots.count >= capacity {
                guard
                    let oldest = order.first(where: { id in
                        slots[id].map { slot in slot.lock.withLock { slot.session.state == .finished } } ?? true
                    })
                else { return .full }
                slots[oldest] = nil
                order.removeAll { $0 == oldest }
            }
            slots[configuration.sessionIdentifier] = Slot(session)
            order.append(configuration.sessionIdentifier)
            return nil
        }
        if let refusal { throw refusal }
    }

    /// Answers a PAOS POST. The session is the one named by `sessionIdentifier` (from the PAOS
    /// URL) or, when nil, by the message: StartPAOS's SessionIdentifier, or the server
    /// message a RelatesTo answers. A body no session owns gets StartPAOSResponse with
    /// `unknownSession`'s result.
    public func respond(toBody body: [UInt8], sessionIdentifier: String? = nil) -> PAOSReply {
        let parsed = try? PAOSEnvelope.parse(body)
        var id = sessionIdentifier
        if id == nil, case .startPAOS(let start)? = parsed?.message { id = start.sessionIdentifier }
        let slot: Slot? = lock.withLock {
            if let id { return slots[id] }
            guard let relatesTo = parsed?.relatesTo else { return nil }
            return slots.values.first { slot in slot.lock.withLock { slot.session.lastMessageID == relatesTo } }
        }
        guard let slot else {
            let failure = SessionFailure.unknownSession
            return .message(
                PAOSEnvelope(
                    .startPAOSResponse(
                        StartPAOSResponse(result: DSSResult(failure.result, message: failure.description))),
                    relatesTo: parsed?.messageID))
        }
        let (reply, finished) = slot.lock.withLock { () -> (PAOSReply, Bool) in
            let reply = parsed.map { slot.session.respond(to: $0) } ?? slot.session.respond(toBody: body)
            return (reply, slot.session.state == .finished)
        }
        if finished {
            let finishedID = slot.lock.withLock { slot.session.configuration.sessionIdentifier }
            lock.withLock { lastFinished = finishedID }
        }
        return reply
    }

    /// The result of a session, once it has finished (nil while it runs or when unknown).
    public func result(of sessionIdentifier: String) -> SessionResult? {
        guard let slot = lock.withLock({ slots[sessionIdentifier] }) else { return nil }
        return slot.lock.withLock { slot.session.result }
    }

    /// The result of the session that finished last (what `/result` serves).
    public var lastResult: SessionResult? {
        guard let id = lock.withLock({ lastFinished }) else { return nil }
        return result(of: id)
    }

    /// Ends every session that has waited longer than its timeout; returns how many.
    @discardableResult
    public func expireStalled() -> Int {
        let all = lock.withLock { order.compactMap { id in slots[id].map { (id, $0) } } }
        var expired = 0
        for (id, slot) in all where slot.lock.withLock({ slot.session.expireIfStalled() }) {
            expired += 1
            lock.withLock { lastFinished = id }
        }
        return expired
    }
}

/// Why a session cannot be added.
public enum EIDServerSessionsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The certificates the session's faults need could not be issued.
    case cannotIssue(ServerPKIError)
    /// A session with this identifier exists already.
    case duplicateSession
    /// Every kept session is still running: try again when some have finished or timed out.
    case full

    public var description: String {
        switch self {
        case .cannotIssue(let error): return "the session cannot start: \(error)"
        case .duplicateSession: return "a session with this identifier exists already: use a fresh identifier"
        case .full: return "too many sessions are running: try again when some have finished or timed out"
        }
    }
}
