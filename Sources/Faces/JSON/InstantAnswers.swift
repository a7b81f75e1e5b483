import SDK
import SmartCard
import Workflows

/// The one place where the commands the SDK allows in any state are answered at once, without
/// the workflow: GET_INFO, GET_READER, GET_READER_LIST, GET_API_LEVEL and SET_API_LEVEL. One per
/// face session: it keeps the session's API level.
// Unchecked: `level` is guarded by `lock`.
public final class InstantAnswers: @unchecked Sendable {
    let version: String
    let board: ReaderBoard
    private let lock = Lock()
    private var level = APILevel.initial

    public init(version: String, board: ReaderBoard) {
        self.version = version
        self.board = board
    }

    /// The answer, or nil when the command is for the workflow.
    public func answer(_ command: SDKCommand) -> SDKMessage? {
        switch command {
        case .getInfo:
            return .info(VersionInfo(implementationVersion: version))
        case .getAPILevel:
            return .apiLevel(error: nil, available: APILevel.available, current: lock.withLock { level })
        case .setAPILevel(let request):
            return lock.withLock {
                let (message, current) = APILevel.set(request, current: level)
                level = current
                return message
            }
        case .getReaderList:
            return .readerList(board.readers())
        case .getReader(let name):
            let name = name ?? ""
            return .reader(
                board.readers().first { $0.name == name } ?? ReaderInfo(name: name, attached: false, card: .none))
        default:
            return nil
        }
    }
}
