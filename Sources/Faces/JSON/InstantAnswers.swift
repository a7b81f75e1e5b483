import SDK
import SmartCard
import Workflows

/// The one place where the commands the SDK allows in any state are answered at once, without
/// the workflow: GET_INFO, GET_READER, GET_READER_LIST, GET_API_LEVEL and SET_API_LEVEL. One per
/// face session: it keeps the session's API level (`level`, shared where a session outlives its
/// workflows: an SDK connection of eid serve).
public final class InstantAnswers: Sendable {
    let version: String
    let board: ReaderBoard
    private let level: Locked<Int>

    public init(version: String, board: ReaderBoard, level: Locked<Int> = Locked(APILevel.initial)) {
        self.version = version
        self.board = board
        self.level = level
    }

    /// The answer, or nil when the command is for the workflow.
    public func answer(_ command: SDKCommand) -> SDKMessage? {
        switch command {
        case .getInfo:
            return .info(VersionInfo(implementationVersion: version))
        case .getAPILevel:
            return .apiLevel(error: nil, available: APILevel.available, current: level.withLock { $0 })
        case .setAPILevel(let request):
            return level.withLock { level in
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
