import SDK
import SmartCard
import Workflows

/// What a running workflow last said about its readers, so that GET_READER and
/// GET_READER_LIST can be answered at any time without touching a card the workflow holds.
// Unchecked: `known` is guarded by `lock`.
public final class ReaderBoard: @unchecked Sendable {
    private let lock = Lock()
    private var known: [String: ReaderInfo] = [:]
    private let lookup: @Sendable () -> (any CardReaderProvider)?

    /// `lookup` gives a fresh look at the readers (its own connection to pcscd).
    public init(lookup: @escaping @Sendable () -> (any CardReaderProvider)?) { self.lookup = lookup }

    /// Remembers the reader a message describes.
    public func note(_ message: SDKMessage) {
        let reader: ReaderInfo?
        switch message {
        case .reader(let r), .enterPIN(_, let r), .enterCAN(_, let r), .enterPUK(_, let r), .enterNewPIN(_, let r):
            reader = r
        default:
            reader = nil
        }
        guard let reader else { return }
        lock.withLock { known[reader.name] = reader }
    }

    /// The readers now: a fresh look, with the workflow's own view for the readers it has
    /// reported (its card is held exclusively and would only show as unknown), and the
    /// in-process simulator as the workflow last saw it.
    public func readers() -> [ReaderInfo] {
        var list = lookup().flatMap { try? ReaderListing(provider: $0).list() } ?? []
        let snapshot = lock.withLock { known }
        for (name, info) in snapshot {
            if let i = list.firstIndex(where: { $0.name == name }) { list[i] = info } else { list.append(info) }
        }
        return list
    }
}
