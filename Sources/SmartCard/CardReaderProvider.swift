/// A connection to a card that the workflows hold for the length of one card session.
public protocol CardConnection: CardChannel {
    /// Ends the card session. With `resetCard` the card is reset, so that no security state
    /// of a PACE session (an open secure messaging, a verified PIN) outlives it; otherwise it
    /// stays powered as it is for the next program.
    func disconnect(resetCard: Bool)
}

extension CardConnection {
    public func disconnect() { disconnect(resetCard: false) }
}

/// One reader as a provider sees it at one moment.
public struct ReaderSnapshot: Equatable, Sendable {
    public var name: String
    /// PC/SC part 10 EXECUTE_PACE: the reader has a PIN pad and runs PACE itself.
    public var hasPINPad: Bool
    public var cardPresent: Bool
    /// Moves whenever a card is inserted or removed, so a swapped card is noticed.
    public var cardEvents: UInt32

    public init(name: String, hasPINPad: Bool = false, cardPresent: Bool, cardEvents: UInt32 = 0) {
        self.name = name
        self.hasPINPad = hasPINPad
        self.cardPresent = cardPresent
        self.cardEvents = cardEvents
    }
}

/// Where readers come from: PC/SC, the in-process simulator, or both.
public protocol CardReaderProvider: AnyObject {
    /// The readers attached now.
    func readers() throws -> [ReaderSnapshot]
    /// Opens a card session with the card in `reader`; `exclusive` keeps other programs off
    /// the card for the session (a workflow with secure messaging asks for it).
    func connect(reader: String, exclusive: Bool) throws -> CardConnection
    /// Waits at most `timeout` seconds for a reader or card to change; returns early on a
    /// change or after `cancelWait()`.
    func waitForChange(timeout: Double) throws
    /// Ends a `waitForChange` running on another thread.
    func cancelWait()
}
