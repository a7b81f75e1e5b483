import PCSC
import SDK
import SmartCard
import Workflows

/// What a running workflow last said about its readers, so that GET_READER and
/// GET_READER_LIST can be answered at any time without touching a card the workflow holds.
final class ReaderBoard: @unchecked Sendable {
    private let lock = Lock()
    private var known: [String: ReaderInfo] = [:]

    /// Remembers the reader a message describes.
    func note(_ message: SDKMessage) {
        let reader: ReaderInfo?
        switch message {
        case .reader(let r), .enterPIN(_, let r), .enterCAN(_, let r), .enterPUK(_, let r), .enterNewPIN(_, let r):
            reader = r
        default:
            reader = nil
        }
        guard let reader else { return }
        lock.lock()
        known[reader.name] = reader
        lock.unlock()
    }

    /// The readers now: a fresh look through PC/SC (its own connection to pcscd), with the
    /// workflow's own view for the readers it has reported (its card is held exclusively and
    /// would only show as unknown), and the in-process simulator as the workflow last saw it.
    func readers() -> [ReaderInfo] {
        var list = (try? PCSCReaderProvider()).flatMap { try? ReaderListing(provider: $0).list() } ?? []
        lock.lock()
        let snapshot = known
        lock.unlock()
        for (name, info) in snapshot {
            if let i = list.firstIndex(where: { $0.name == name }) { list[i] = info } else { list.append(info) }
        }
        return list
    }

    /// The answer to GET_READER_LIST and GET_READER.
    func answer(_ command: SDKCommand) -> SDKMessage? {
        switch command {
        case .getReaderList:
            return .readerList(readers())
        case .getReader(let name):
            let name = name ?? ""
            return .reader(readers().first { $0.name == name } ?? ReaderInfo(name: name, attached: false, card: .none))
        default:
            return nil
        }
    }
}
