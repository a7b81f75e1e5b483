import SDK
import Workflows

/// The STATUS messages of the JSON face during an authentication, as AusweisApp sends them at
/// API level 2: `{"msg":"STATUS","workflow":"AUTH","progress":P,"state":S}` whenever the
/// progress changes, where S is the last message that asked the client something
/// (ACCESS_RIGHTS, INSERT_CARD, ENTER_PIN, ENTER_CAN, ENTER_PUK; null before the first).
///
/// It sits between the workflow and the JSON peer.
final class StatusReport: SDKPeer {
    private let inner: SDKPeer
    private var lastStateMessage: String?

    init(inner: SDKPeer) {
        self.inner = inner
    }

    static func status(_ progress: AuthProgress, state: String?) -> SDKMessage {
        .status(workflow: "AUTH", progress: progress.percent, state: state)
    }

    /// STATUS for `progress`.
    func report(_ progress: AuthProgress) {
        inner.send(Self.status(progress, state: lastStateMessage))
    }

    func send(_ message: SDKMessage) {
        switch message {
        case .accessRights, .insertCard, .enterPIN, .enterCAN, .enterPUK, .enterNewPIN:
            // A repeated ENTER_* with `error` is the same question again.
            lastStateMessage = message.name
        default:
            break
        }
        inner.send(message)
    }

    func nextCommand(timeout: Double) -> PeerInput { inner.nextCommand(timeout: timeout) }

    var isCancelled: Bool { inner.isCancelled }
}
