import Online

/// ResultMajor and ResultMinor of an IFD response (TR-03112-1 URIs, as in PAOS). A minor that is
/// not in eid's table is kept as its URI, so that an error still names it.
public struct IFDResult: Equatable, Sendable {
    public var major: ECardAPIResult.Major
    /// The minor URI as the phone sent it; nil when it sent none (or null).
    public var minorURI: String?

    public init(major: ECardAPIResult.Major, minorURI: String? = nil) {
        self.major = major
        self.minorURI = minorURI
    }

    public static let ok = IFDResult(major: .ok)

    public static func error(_ minor: ECardAPIResult.Minor) -> IFDResult {
        IFDResult(major: .error, minorURI: minor.rawValue)
    }

    public var isOK: Bool { major == .ok }

    /// The minor as a known code, nil when there is none or it is not in the table.
    public var minor: ECardAPIResult.Minor? { minorURI.flatMap { ECardAPIResult.Minor(uri: $0) } }

    /// Whether the phone says the card is not there (any more): no card, or the slot handle it
    /// gave is no longer valid because the card left.
    public var saysCardGone: Bool { minor == .noCard || minor == .invalidSlotHandle }

    /// Short text for errors: the fragment of the minor URI (`ifdl/terminal#noCard`), or the major.
    public var summary: String {
        guard let minorURI else { return major == .ok ? "ok" : "error without ResultMinor" }
        let prefix = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/"
        return minorURI.hasPrefix(prefix) ? String(minorURI.dropFirst(prefix.count)) : minorURI
    }
}
