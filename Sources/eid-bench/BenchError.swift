/// Why eid-bench stops: bad arguments (it prints the usage and exits 64) or a card or reader that
/// did not do what a measurement needs (exit 1).
enum BenchError: Error, CustomStringConvertible {
    /// The arguments do not fit the usage line given.
    case usage(String)
    /// The reader's connection is not a PC/SC card.
    case notPCSCCard
    /// The card refused a command the measurement needs (its name).
    case refused(String)

    var description: String {
        switch self {
        case .usage(let line): return "usage: \(line)"
        case .notPCSCCard: return "the reader's card is not a PC/SC card"
        case .refused(let command): return "the card refused \(command)"
        }
    }
}
