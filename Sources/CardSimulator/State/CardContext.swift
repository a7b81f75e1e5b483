import EAC

/// Everything a command handler may read and change: the persistent state (passwords, files,
/// trust anchors, the card's current date) and the state of the current card session.
public struct CardContext: Sendable {
    public var passwords: PasswordState
    public var fileSystem: CardFileSystem
    public var session: CardSession
    /// The CVCA certificates Terminal Authentication trusts (`eid-sim --cvca`; default: the
    /// project's test CVCA), the current one first: PACE names them as CAR 1 and CAR 2.
    public var trustAnchors: [CVCertificate]
    /// The card's current date (`eid-sim --date`; default: today), against which Terminal
    /// Authentication checks certificate expiry, raised by the certificates it imports.
    public var currentDate: CalendarDate

    public init(
        passwords: PasswordState, fileSystem: CardFileSystem, session: CardSession = CardSession(),
        trustAnchors: [CVCertificate] = [], currentDate: CalendarDate
    ) {
        self.passwords = passwords
        self.fileSystem = fileSystem
        self.session = session
        self.trustAnchors = trustAnchors
        self.currentDate = currentDate
    }
}
