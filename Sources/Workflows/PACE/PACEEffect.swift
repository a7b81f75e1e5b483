import EAC
import SDK

/// What the PACE sub-machine does on a transition (`PACEPerformer` performs it). The ones marked
/// "→" give the next event.
public enum PACEEffect: WorkflowEffect {
    /// → `cardFound`, `cancelled`, `timedOut`, `failed`: waits for a usable eID card (INSERT_CARD,
    /// READER for cards that are not).
    case waitForCard
    /// Sends READER with the card as last noted.
    case sendReader
    /// The card state the following messages carry.
    case noteCard(CardInfo)
    /// → `proceed` or `cancelled`.
    case checkCancelled
    /// → `answered`, `cancelled`, `timedOut`: sends ENTER_* and takes the first valid answer.
    case ask(SecretKind)
    /// → `paceEstablished`, `paceRefused`, `failed`: PACE with the answer, which is then wiped.
    case establishPace(PACEPasswordType)
    /// → `retryCounterRead`, `failed`.
    case readRetryCounter
    /// → `unblocked`, `failed`: RESET RETRY COUNTER; a status word the card answers without
    /// secure messaging is its answer too.
    case unblockPIN
    /// Ends the card session: the connection is reset and the card let go, so the next card
    /// search reads it afresh (AusweisApp's resetCardConnection).
    case dropCard

    /// Whether performing it gives the next event.
    public var givesEvent: Bool {
        switch self {
        case .sendReader, .noteCard, .dropCard: return false
        default: return true
        }
    }
}
