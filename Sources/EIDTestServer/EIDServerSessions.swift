import FoundationEssentials
import Online
import SmartCard

/// The server's sessions, many at once (parallel CI jobs), each isolated: created when a
/// TcToken is handed out, found again by the front end for every PAOS POST, and kept with their
/// results. Each running session has a lock of its own, so sessions run side by side while one
/// session's messages are taken one at a time. At most `capacity` sessions run at once. When
/// they are all running, the oldest session still waiting for StartPAOS `startGrace` seconds
/// after its TcToken gives way to the new one (an eID client sends StartPAOS right after the
/// TcToken, so such a session was fetched and left: a flood of TcToken requests only pushes out
/// its own sessions); else the new one is refused (`full`, with the seconds until a slot frees)
/// rather than ending a started session. Sessions that stall (`SessionConfiguration.timeout`,
/// `startTimeout` before StartPAOS) time out and free their slots. A finished session keeps only its result, and only
/// the last `resultCapacity` results are kept, so memory stays flat however many sessions run.
/// The table and each slot guard their state with a lock, hence @unchecked Sendable.
public final class EIDServerSessions: @unchecked Sendable {
    private final class Slot: @unchecked Sendable {
        let lock = Lock()
        var session: EIDServerSession
        init(_ session: EIDServerSession) { self.session = session }
    }

    private let lock = Lock()
    private var running: [String: Slot] = [:]
    private var results: [String: SessionResult] = [:]
    /// Identifiers of the kept results, the oldest first.
    private var resultOrder: [String] = []
    private var lastFinished: String?
    private let clock: any SessionClock
    /// At most this many sessions run at once.
    public let capacity: Int
    /// The results of at most this many finished sessions are kept (the oldest goes first).
    public let resultCapacity: Int
    /// Seconds a session waiting for StartPAOS is safe from giving way to a new one.
    public let startGrace: Double

    public init(
        clock: any SessionClock = MonotonicSessionClock(), capacity: Int = 256, resultCapacity: Int = 1024,
        startGrace: Double = 5
    ) {
        self.clock = clock
        self.capacity = max(1, capacity)
        self.resultCapacity = max(1, resultCapacity)
        self.startGrace = startGrace
    }

    /// Adds a session for `configuration` (its `sessionIdentifier` must be new); throws when the
    /// certificates its faults need cannot be issued or `capacity` sessions are running.
    public func create(_ configuration: SessionConfiguration) throws(EIDServerSessionsError) {
        let id = configuration.sessionIdentifier
        if let refusal = lock.withLock({ admission(id) }) {
            guard case .full = refusal else { throw refusal }
            expireStalled()
            if let again = lock.withLock({ admission(id) }) { throw again }
        }
        let session: EIDServerSession
        do { session = try EIDServerSession(configuration: configuration, clock: clock) } catch {
            throw .cannotIssue(error)
        }
        let refusal = lock.withLock { () -> EIDServerSessionsError? in
            if let refusal = admission(id) { return refusal }
            running[id] = Slot(session)
            return nil
        }
        if let refusal { throw refusal }
    }

    /// Why a session `id` cannot be added now, nil when it can (under the table's lock). When
    /// the table is full, the oldest session left unstarted for `startGrace` gives way (it ends
    /// as timed out).
    private func admission(_ id: String) -> EIDServerSessionsError? {
        guard running[id] == nil, results[id] == nil else { return .duplicateSession }
        guard running.count >= capacity else { return nil }
        let now = clock.now()
        var soonest = Double.infinity
        var left: (id: String, since: Double)?
        for (other, slot) in running {
            let (unstarted, since, remaining) = slot.lock.withLock {
                (
                    slot.session.state == .waitingForStartPAOS, slot.session.lastActivity,
                    slot.session.secondsLeft(now: now)
                )
            }
            soonest = min(soonest, remaining, unstarted ? since + startGrace - now : .infinity)
            if unstarted, now - since >= startGrace, since < left?.since ?? .infinity { left = (other, since) }
        }
        if let left, let slot = running[left.id] {
            let result = slot.lock.withLock { () -> SessionResult? in
                guard slot.session.state == .waitingForStartPAOS else { return nil }
                slot.session.finish(failure: .timedOut)
                return slot.session.result
            }
            if let result {
                retire(left.id, result)
                return nil
            }
        }
        return .full(retryAfter: max(1, Int(soonest.rounded(.up))))
    }

    /// Answers a PAOS POST. The session is the one named by `sessionIdentifier` (from the PAOS
    /// URL) or, when nil, by the message: StartPAOS's SessionIdentifier, or the server
    /// message a RelatesTo answers. A body no running session owns gets StartPAOSResponse with
    /// `unknownSession`'s result, or an error saying the session has ended.
    public func respond(toBody body: [UInt8], sessionIdentifier: String? = nil) -> PAOSReply {
        let parsed = try? PAOSEnvelope.parse(body)
        var id = sessionIdentifier
        if id == nil, case .startPAOS(let start)? = parsed?.message { id = start.sessionIdentifier }
        let (slot, ended): (Slot?, Bool) = lock.withLock {
            if let id { return (running[id], results[id] != nil) }
            guard let relatesTo = parsed?.relatesTo else { return (nil, false) }
            let slot = running.values.first { slot in slot.lock.withLock { slot.session.lastMessageID == relatesTo } }
            return (slot, false)
        }
        guard let slot else {
            let (result, message) =
                ended
                ? (ECardAPIResult.error(.internalError), "the session has ended")
                : (SessionFailure.unknownSession.result, SessionFailure.unknownSession.description)
            return .message(
                PAOSEnvelope(
                    .startPAOSResponse(StartPAOSResponse(result: DSSResult(result, message: message))),
                    relatesTo: parsed?.messageID))
        }
        let (reply, result) = slot.lock.withLock { () -> (PAOSReply, SessionResult?) in
            let reply = parsed.map { slot.session.respond(to: $0) } ?? slot.session.respond(toBody: body)
            return (reply, slot.session.state == .finished ? slot.session.result : nil)
        }
        if let result {
            let finishedID = slot.lock.withLock { slot.session.configuration.sessionIdentifier }
            lock.withLock { retire(finishedID, result) }
        }
        return reply
    }

    /// Moves a finished session out of the running ones, keeping only its result (under the
    /// table's lock).
    private func retire(_ id: String, _ result: SessionResult) {
        guard running.removeValue(forKey: id) != nil else { return }
        results[id] = result
        resultOrder.append(id)
        lastFinished = id
        if resultOrder.count > resultCapacity {
            let dropped = resultOrder.removeFirst()
            results[dropped] = nil
        }
    }

    /// The result of a session, once it has finished (nil while it runs or when unknown, or
    /// when `resultCapacity` newer results have pushed it out).
    public func result(of sessionIdentifier: String) -> SessionResult? {
        lock.withLock { results[sessionIdentifier] }
    }

    /// Whether session `sessionIdentifier` is running (created, not finished, not timed out).
    public func isRunning(_ sessionIdentifier: String) -> Bool {
        lock.withLock { running[sessionIdentifier] != nil }
    }

    /// How many sessions are running.
    public var runningCount: Int { lock.withLock { running.count } }

    /// The result of the session that finished last (what `/result` serves).
    public var lastResult: SessionResult? {
        lock.withLock { lastFinished.flatMap { results[$0] } }
    }

    /// Ends every session that has waited longer than its timeout; returns how many.
    @discardableResult
    public func expireStalled() -> Int {
        let all = lock.withLock { Array(running) }
        var expired = 0
        for (id, slot) in all {
            let result = slot.lock.withLock { slot.session.expireIfStalled() ? slot.session.result : nil }
            guard let result else { continue }
            expired += 1
            lock.withLock { retire(id, result) }
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
    /// As many sessions as allowed are running: try again in `retryAfter` seconds, when the
    /// one closest to its timeout frees its slot (or earlier, when one finishes).
    case full(retryAfter: Int)

    public var description: String {
        switch self {
        case .cannotIssue(let error): return "the session cannot start: \(error)"
        case .duplicateSession: return "a session with this identifier exists already: use a fresh identifier"
        case .full(let seconds):
            return "too many sessions are running: try again in \(seconds) s, or when some have finished"
        }
    }
}
