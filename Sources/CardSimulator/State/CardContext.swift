/// Everything a command handler may read and change: the persistent state (passwords, files)
/// and the state of the current card session.
public struct CardContext: Sendable {
    public var passwords: PasswordState
    public var fileSystem: CardFileSystem
    public var session: CardSession

    public init(passwords: PasswordState, fileSystem: CardFileSystem, session: CardSession = CardSession()) {
        self.passwords = passwords
        self.fileSystem = fileSystem
        self.session = session
    }
}
