import SDK
import Workflows

/// The one place where the commands the SDK allows in any state are answered at once, without
/// the workflow: GET_INFO, GET_READER and GET_READER_LIST.
public struct InstantAnswers: Sendable {
    let version: String
    let board: ReaderBoard

    public init(version: String, board: ReaderBoard) {
        self.version = version
        self.board = board
    }

    /// The answer, or nil when the command is for the workflow.
    public func answer(_ command: SDKCommand) -> SDKMessage? {
        switch command {
        case .getInfo:
            return .info(VersionInfo(implementationVersion: version))
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
