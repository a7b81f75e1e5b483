import SDK
import SmartCard
import Workflows

/// The one place where the commands the SDK allows in any state are answered at once, without
/// the workflow: GET_INFO, GET_STATUS, GET_READER, GET_READER_LIST, GET_API_LEVEL and
/// SET_API_LEVEL, and the commands a desktop or the session's API level does not have
/// (UNKNOWN_COMMAND). One per face session: it keeps the session's API level (`level`, shared
/// with the console that shapes the messages, and where a session outlives its workflows: an SDK
/// connection of eid serve).
public final class InstantAnswers: Sendable {
    let version: String
    let board: ReaderBoard
    private let level: Locked<Int>
    private let status: WorkflowStatus

    public init(
        version: String, board: ReaderBoard, level: Locked<Int> = Locked(APILevel.initial),
        status: WorkflowStatus = WorkflowStatus()
    ) {
        self.version = version
        self.board = board
        self.level = level
        self.status = status
    }

    /// The answer, or nil when the command is for the workflow (or gets BAD_STATE).
    public func answer(_ command: SDKCommand) -> SDKMessage? {
        let current = level.withLock { $0 }
        switch command {
        case .getInfo:
            return .info(VersionInfo(implementationVersion: version))
        case .getAPILevel:
            return .apiLevel(error: nil, available: APILevel.available, current: current)
        case .setAPILevel(let request):
            return level.withLock { level in
                let (message, current) = APILevel.set(request, current: level)
                level = current
                return message
            }
        case .getStatus:
            return current < 2 ? .unknownCommand(command.name) : status.message
        case .getReaderList:
            return .readerList(board.readers())
        case .getReader(.undefined):
            return .readerRefused(error: "Name cannot be undefined")
        case .getReader(.invalid):
            return .readerRefused(error: "Invalid name")
        case .getReader(.value(let name)):
            return .reader(
                board.readers().first { $0.name == name } ?? ReaderInfo(name: name, attached: false, card: .none))
        case .interrupt:
            // Only iOS has a system dialog to interrupt.
            return .unknownCommand(command.name)
        case .continueWorkflow where current < 3, .setCard where current < 2:
            return .unknownCommand(command.name)
        default:
            return nil
        }
    }
}
