import SDK
import SmartCard

/// What GET_STATUS reports for one SDK session: the running workflow, its progress, and the
/// question it waits at (null while it works); all null between workflows. The workflow's
/// status peer (`StatusReport`) keeps it; the instant answers read it.
// Unchecked: `now` is guarded by `lock`.
public final class WorkflowStatus: @unchecked Sendable {
    private let lock = Lock()
    private var now = Now()

    struct Now {
        var workflow: String?
        var progress: Int?
        var state: String?
    }

    public init() {}

    /// A workflow ("AUTH", "CHANGE_PIN") has started, at progress 0.
    public func start(_ workflow: String) { lock.withLock { now = Now(workflow: workflow, progress: 0) } }

    /// The workflow has ended.
    public func end() { lock.withLock { now = Now() } }

    func progress(_ percent: Int) { lock.withLock { if now.workflow != nil { now.progress = percent } } }

    /// The workflow waits at `question` (nil: it works).
    func waiting(at question: String?) { lock.withLock { if now.workflow != nil { now.state = question } } }

    /// The STATUS message for GET_STATUS.
    public var message: SDKMessage {
        lock.withLock { .status(workflow: now.workflow, progress: now.progress, state: now.state) }
    }
}
