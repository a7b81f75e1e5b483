import Online
import SDK
import SmartCard
import Workflows

/// The STATUS side of a JSON face's workflow, between the workflow and the JSON peer. It keeps
/// the session's `WorkflowStatus` (for GET_STATUS) and sends the automatic STATUS messages of an
/// authentication, as AusweisApp sends them from API level 2 on (unless RUN_AUTH said `status:
/// false`): `{"msg":"STATUS","workflow":"AUTH","progress":P,"state":null}` whenever the
/// percentage changes (0, 20, 40, 60, 80; at level 2 also 100 before a successful end, as
/// AusweisApp2 1.26.2 sends it). The progress changes only while the workflow works, so `state`
/// is null there; GET_STATUS names the question (ACCESS_RIGHTS, INSERT_CARD, ENTER_PIN, …) the
/// workflow waits at.
final class StatusReport: SDKPeer {
    private let inner: SDKPeer
    private let status: WorkflowStatus
    private let enabled: Bool
    private let level: Locked<Int>
    /// The last question asked, re-opened each time the workflow waits for a command.
    private var question: String?
    private var percent: Int?

    /// `enabled`: RUN_AUTH's `status` (false: no automatic STATUS); `level`: the session's API
    /// level (below 2: none either).
    init(inner: SDKPeer, workflow: String, status: WorkflowStatus, enabled: Bool, level: Locked<Int>) {
        self.inner = inner
        self.status = status
        self.enabled = enabled
        self.level = level
        status.start(workflow)
    }

    static func status(_ percent: Int) -> SDKMessage {
        .status(workflow: "AUTH", progress: percent, state: nil)
    }

    private var automatic: Bool { enabled && level.withLock { $0 } >= 2 }

    /// STATUS for `progress`, when its percentage is new.
    func report(_ progress: AuthProgress) {
        guard progress.percent != percent else { return }
        percent = progress.percent
        status.progress(progress.percent)
        if automatic { inner.send(Self.status(progress.percent)) }
    }

    func send(_ message: SDKMessage) {
        if case .auth(let result?, _) = message, result.major == ECardAPIResult.Major.ok.rawValue, automatic,
            level.withLock({ $0 }) == 2
        {
            inner.send(Self.status(100))
        }
        switch message {
        case .accessRights, .enterPIN, .enterCAN, .enterPUK, .enterNewPIN:
            // A repeated ENTER_* with `error` is the same question again.
            question = message.name
            status.waiting(at: message.name)
        case .insertCard:
            // Not a question: the workflow waits for a card until it goes on.
            question = nil
            status.waiting(at: message.name)
        case .reader, .certificate:
            break
        case .auth(result: _?, _), .changePIN(success: _?, _):
            status.end()
        default:
            status.waiting(at: nil)
        }
        inner.send(message)
    }

    func nextCommand(timeout: Double) -> PeerInput {
        if let question { status.waiting(at: question) }
        let input = inner.nextCommand(timeout: timeout)
        if case .command = input { status.waiting(at: nil) }
        return input
    }

    var isCancelled: Bool { inner.isCancelled }
}
