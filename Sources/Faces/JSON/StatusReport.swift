import SDK
import Workflows

/// The STATUS messages of the JSON face during an authentication, as AusweisApp sends them at
/// API level 2: `{"msg":"STATUS","workflow":"AUTH","progress":P,"state":S}` whenever the
/// progress changes, where S is the last message that asked the client something
/// (ACCESS_RIGHTS, INSERT_CARD, ENTER_PIN, ENTER_CAN, ENTER_PUK; null before the first).
///
/// It sits between the workflow and the JSON peer. The face opens the authentication itself
/// (AUTH, then STATUS at 0 % before the TcToken is fetched), so the workflow's own opening AUTH
/// is not said twice.
final class StatusReport: SDKPeer {
    private let inner: SDKPeer
    private var opened: Bool
    private var lastStateMessage: String?

    /// `opened`: AUTH and the first STATUS (`opening`) were already sent.
    init(inner: SDKPeer, opened: Bool) {
        self.inner = inner
        self.opened = opened
    }

    /// The first two messages of an authentication, sent before the TcToken is fetched.
    static let opening: [SDKMessage] = [.auth(result: nil, url: nil), status(.start, state: nil)]

    static func status(_ progress: AuthProgress, state: String?) -> SDKMessage {
        .status(workflow: "AUTH", progress: progress.percent, state: state)
    }

    /// STATUS for `progress`.
    func report(_ progress: AuthProgress) {
        inner.send(Self.status(progress, state: lastStateMessage))
    }

    func send(_ message: SDKMessage) {
        switch message {
        case .auth(nil, _):
            if opened { return }
            opened = true
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
