import EAC
import EIDCrypto
import SmartCard

/// Everything a command handler may read and change: the persistent state (passwords, files,
/// trust anchors, the card's current date) and the state of the current card session.
public struct CardContext: Sendable {
    public var passwords: PasswordState
    public var fileSystem: CardFileSystem
    public var session: CardSession
    /// The CVCA certificates Terminal Authentication trusts (`eid-sim --cvca`; default: the
    /// project's test CVCA), the current one first: PACE names them as CAR 1 and CAR 2; a verified
    /// CVCA link certificate joins them.
    public var trustAnchors: [CVCertificate]
    /// The card's current date (it has no clock; `eid-sim --date`, default: today): certificates
    /// expire against it, and verified CVCA, DV and domestic terminal certificates move it forward
    /// (TR-03110-3, 2.5).
    public var currentDate: CalendarDate
    /// The static Chip Authentication key pair, its protocol and key id.
    public var chipAuthentication: ChipAuthenticationCard

    /// The card's date when nothing else sets it (unit tests; eid-sim uses today).
    public static let defaultCurrentDate = CalendarDate(year: 2026, month: 1, day: 1)!

    public init(
        passwords: PasswordState, fileSystem: CardFileSystem, session: CardSession = CardSession(),
        trustAnchors: [CVCertificate] = [], currentDate: CalendarDate = CardContext.defaultCurrentDate,
        chipAuthentication: ChipAuthenticationCard = SimulatorSecurityInfos.chipAuthentication
    ) {
        self.passwords = passwords
        self.fileSystem = fileSystem
        self.session = session
        self.trustAnchors = trustAnchors
        self.currentDate = currentDate
        self.chipAuthentication = chipAuthentication
    }

    /// Refuses a command that needs PACE in this session (6982, security status not satisfied)
    /// when none was done.
    func requirePACE() throws {
        guard session.authenticatedPassword != nil else { throw CardError.statusWord(.securityStatusNotSatisfied) }
    }

    /// Runs `body` on the Terminal Authentication state of this session, which starts from the
    /// card's trust anchors and date and hands back what TA changed in them.
    mutating func withTerminalAuthentication<T>(_ body: (inout TerminalAuthenticationCard) throws -> T) rethrows -> T {
        var ta =
            session.protocolState[TerminalAuthenticationCard.stateKey] as? TerminalAuthenticationCard
            ?? TerminalAuthenticationCard(trustAnchors: trustAnchors, currentDate: currentDate)
        ta.trustAnchors = trustAnchors
        ta.currentDate = currentDate
        defer {
            trustAnchors = ta.trustAnchors
            currentDate = ta.currentDate
            session.protocolState[TerminalAuthenticationCard.stateKey] = ta
        }
        return try body(&ta)
    }
}
