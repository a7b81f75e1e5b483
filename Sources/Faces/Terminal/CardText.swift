import SDK
import Workflows

/// The plain sentences the terminal face uses for readers and cards.
enum CardText {
    static func sentence(for card: CardPresence) -> String {
        switch card {
        case .none: return "no card"
        case .unknown: return "not an eID card"
        case .eID(let info):
            if info.deactivated { return "eID function deactivated" }
            if info.inoperative { return "PIN blocked — PUK no longer usable" }
            switch info.retryCounter {
            case 0: return "PIN blocked — PUK needed"
            case 1: return "PIN suspended — enter the CAN first"
            case let n: return "eID card — PIN: \(n) attempts left"
            }
        }
    }

    /// An aligned table, at most 80 columns wide: reader name (shortened with "…" past 34
    /// characters), whether it has a PIN pad (eid does not use it yet), card.
    static func table(_ entries: [ReaderListing.Entry]) -> [String] {
        // Names escaped first (TerminalSafeText), so that the columns line up as printed.
        let names = entries.map { TerminalSafeText.escaped($0.info.name) }
        let nameWidth = min(34, max(6, names.map(\.count).max() ?? 0))
        func pad(_ s: String, _ w: Int) -> String {
            let cut = s.count > w ? String(s.prefix(w - 1)) + "…" : s
            return cut + String(repeating: " ", count: max(0, w - cut.count))
        }
        var lines = [pad("READER", nameWidth) + "  PINPAD  CARD"]
        for (e, name) in zip(entries, names) {
            let r = e.info
            let card = e.cardInUse ? "card in use by another program" : sentence(for: r.card)
            lines.append(pad(name, nameWidth) + "  " + pad(e.hasPINPad ? "yes" : "no", 6) + "  " + card)
        }
        return lines
    }

    /// One line for a READER message while watching.
    static func change(_ r: ReaderInfo) -> String {
        r.attached ? "\(r.name): \(sentence(for: r.card))" : "\(r.name): reader removed"
    }
}
