import EAC
import SDK
import SmartCard

/// What a workflow's PACE sub-machine works with, change PIN's and authentication's alike: the
/// readers, the peer that answers its questions, the reader to use, how long it waits, and how a
/// card session (`Card`: the operations the workflow needs) is made from a connection and the
/// PACEInfo of the card's EF.CardAccess.
public struct PACEConfiguration<Card> {
    public var provider: CardReaderProvider
    public var peer: SDKPeer
    /// Use only this reader (nil: the first reader with an eID card).
    public var readerName: String?
    public var timeouts: WorkflowTimeouts
    public var openSession: (CardConnection, PACEInfo) -> Card
    /// The card session on a reader with a PIN pad (a `PINPadConnection` whose reader reports
    /// one): PACE and the new PIN are typed on the reader. nil: such readers are used as basic
    /// readers, the secrets asked for as everywhere else.
    public var openPINPadSession: ((PINPadConnection, PACEInfo) -> Card)?

    public init(
        provider: CardReaderProvider, peer: SDKPeer, readerName: String? = nil, timeouts: WorkflowTimeouts = .init(),
        openSession: @escaping (CardConnection, PACEInfo) -> Card,
        openPINPadSession: ((PINPadConnection, PACEInfo) -> Card)? = nil
    ) {
        self.provider = provider
        self.peer = peer
        self.readerName = readerName
        self.timeouts = timeouts
        self.openSession = openSession
        self.openPINPadSession = openPINPadSession
    }

    /// The same configuration with its sessions seen as `Other` (an authentication's card as the
    /// PIN operations the PACE sub-machine needs).
    func map<Other>(_ transform: @escaping (Card) -> Other) -> PACEConfiguration<Other> {
        let open = openSession
        let openPINPad = openPINPadSession
        return PACEConfiguration<Other>(
            provider: provider, peer: peer, readerName: readerName, timeouts: timeouts,
            openSession: { transform(open($0, $1)) },
            openPINPadSession: openPINPad.map { open in { transform(open($0, $1)) } })
    }
}
