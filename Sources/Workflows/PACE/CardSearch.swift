import EAC
import SDK
import SmartCard

/// StateSelectReader's work: finding an eID card whose PIN state allows PACE, held exclusively.
struct CardSearch {
    let provider: CardReaderProvider
    let peer: SDKPeer
    /// Only this reader (nil: the first reader with a usable eID card).
    let readerName: String?

    struct Found {
        var reader: ReaderInfo
        var connection: CardConnection
        var paceInfo: PACEInfo
        var info: CardInfo
    }

    enum Result {
        case found(Found)
        case cancelled
        case timedOut
        /// The reader failed.
        case failed(CardError)
    }

    /// Waits at most `timeout` seconds for a usable eID card: INSERT_CARD once while no card is
    /// there (a card that is only busy or cannot be used counts: the SDK sends none when a card
    /// was inserted, and AusweisApp2 shows an unusable one with READER alone), READER for each
    /// card that cannot be used (not an eID card, deactivated) until that reader's card changes.
    func waitForCard(timeout: Double) -> Result {
        let deadline = Deadline(secondsFromNow: timeout)
        var announced = false
        // Cards already shown as unusable, by reader, until that reader's card changes.
        var refused: [String: UInt32] = [:]
        while true {
            if peer.isCancelled { return .cancelled }
            let readers: [ReaderSnapshot]
            do {
                readers = try provider.readers().filter { readerName == nil || $0.name == readerName }
            } catch {
                return .failed(CardError(error))
            }
            let cardThere = readers.contains { $0.cardPresent }
            for r in readers where r.cardPresent && refused[r.name] != r.cardEvents {
                switch inspect(r) {
                case .usable(let card):
                    return .found(card)
                case .refused(let info):
                    refused[r.name] = r.cardEvents
                    peer.send(.reader(info))
                case .gone:
                    // Present but not to be opened now (another program uses it): look again.
                    continue
                }
            }
            if !announced && !cardThere {
                peer.send(.insertCard)
                announced = true
            }
            if deadline.hasPassed { return .timedOut }
            do {
                try provider.waitForChange(timeout: min(0.5, max(0.05, deadline.remaining)))
            } catch {
                return .failed(CardError(error))
            }
        }
    }

    private enum Inspection {
        case usable(Found)
        case refused(ReaderInfo)
        case gone
    }

    private func inspect(_ reader: ReaderSnapshot) -> Inspection {
        let connection: CardConnection
        do {
            connection = try provider.connect(reader: reader.name, exclusive: true)
        } catch {
            return .gone
        }
        do {
            guard let paceInfo = try EIDCardState.paceInfo(connection) else {
                connection.disconnect()
                return .refused(ReaderInfo(name: reader.name, keypad: false, card: .unknown))
            }
            let presence = EIDCardState.presence(for: try EIDCardState.pinOutcome(connection, paceInfo: paceInfo))
            // The PIN pad counts when the reader reports one and the connection can drive it.
            let keypad = reader.hasPINPad && connection is PINPadConnection
            let info = ReaderInfo(name: reader.name, keypad: keypad, card: presence)
            guard let card = presence.eIDCard, !card.deactivated else {
                connection.disconnect()
                return .refused(info)
            }
            return .usable(Found(reader: info, connection: connection, paceInfo: paceInfo, info: card))
        } catch {
            connection.disconnect()
            return .gone
        }
    }
}
