import Online
import SDK
import SmartCard

/// Why a command did not succeed: the one table that gives each reason its stable name (as
/// AusweisApp's FailureCode reasons are named, so that scripts and the STATUS and AUTH
/// messages can name it), eid's exit status, the eCard-API result an SDK client sees, and the
/// sentence with the next step that eid prints after "eid: ". The workflows' outcomes and the
/// card layer's errors come here as typed values (`init(_:timeout:)`, `init(readerError:)`);
/// no face maps them on its own.
///
/// No reason carries a secret: the card errors they carry hold status words and the reader
/// layer's sentences, never command data.
public enum FailureReason: Equatable, Sendable {
    // MARK: Change PIN

    /// CANCEL, end of input, or the terminal's Ctrl-C at a prompt.
    case changePINUserCancelled
    /// A stop signal (SIGINT, SIGTERM, SIGQUIT, SIGHUP): the workflow cancelled, wiped its
    /// secrets and reset the card.
    case changePINInterrupted
    /// A stop signal, and the workflow did not end within the grace time: a command may still
    /// be with the card.
    case changePINInterruptedCardBusy
    /// No card, or no answer from the peer, within the timeout (`--timeout`, whole seconds).
    case changePINInputTimeout(seconds: Int)
    /// No terminal to ask for a secret on, and no JSON commands either.
    case changePINNoTerminal
    /// The PUK has unblocked the PIN ten times: the card refuses it now.
    case establishPACEChannelPUKInoperative
    /// The card left the reader during the workflow.
    case changePINCardRemoved
    /// The card answered a status word the workflow cannot continue with.
    case changePINUnexpectedTransmitStatus(StatusWord)
    /// Any other card or reader failure during the workflow.
    case changePINUnrecoverable(CardError)

    // MARK: Readers

    /// The reader service (pcscd) is not running or not reachable.
    case readerServiceUnavailable(CardError)
    /// The reader service failed otherwise while the readers were listed or watched.
    case readerFailed(CardError)

    /// The stable name of the reason: AusweisApp's FailureCode where one fits
    /// (`Card_Removed`, `Change_Pin_User_Cancelled`, ...), in its spelling otherwise.
    public var name: String {
        switch self {
        case .changePINUserCancelled: return "Change_Pin_User_Cancelled"
        case .changePINInterrupted: return "Change_Pin_Interrupted"
        case .changePINInterruptedCardBusy: return "Change_Pin_Interrupted_Card_Busy"
        case .changePINInputTimeout: return "Change_Pin_Input_Timeout"
        case .changePINNoTerminal: return "Change_Pin_No_Terminal"
        case .establishPACEChannelPUKInoperative: return "Establish_Pace_Channel_Puk_Inoperative"
        case .changePINCardRemoved: return "Card_Removed"
        case .changePINUnexpectedTransmitStatus: return "Change_Pin_Unexpected_Transmit_Status"
        case .changePINUnrecoverable: return "Change_Pin_Unrecoverable"
        case .readerServiceUnavailable: return "Reader_Service_Unavailable"
        case .readerFailed: return "Reader_Failed"
        }
    }

    /// eid's exit status for the reason (eid(1), README "Exit status").
    public var exitStatus: Int32 {
        switch self {
        case .changePINUserCancelled, .changePINInputTimeout: return ExitStatus.cancelled
        case .changePINInterrupted, .changePINInterruptedCardBusy: return ExitStatus.interrupted
        case .changePINNoTerminal: return ExitStatus.usage
        case .establishPACEChannelPUKInoperative: return ExitStatus.cardState
        case .changePINCardRemoved, .changePINUnexpectedTransmitStatus, .changePINUnrecoverable, .readerFailed:
            return ExitStatus.cardError
        case .readerServiceUnavailable: return ExitStatus.serviceUnavailable
        }
    }

    /// The eCard-API result, with the minor AusweisApp gives the same failure (a removed card
    /// counts as the user's cancellation there; a used-up PUK as no permission).
    public var result: ECardAPIResult {
        switch self {
        case .changePINUserCancelled, .changePINInterrupted, .changePINInterruptedCardBusy, .changePINCardRemoved:
            return .error(.cancellationByUser)
        case .changePINInputTimeout, .changePINUnexpectedTransmitStatus, .changePINUnrecoverable:
            return .error(.unknownError)
        case .establishPACEChannelPUKInoperative: return .error(.noPermission)
        case .changePINNoTerminal, .readerServiceUnavailable, .readerFailed: return .error(.communicationError)
        }
    }

    /// What happened and what to do next, for a person (eid prints it after "eid: ").
    public var sentence: String {
        switch self {
        case .changePINUserCancelled, .changePINInterrupted:
            return "cancelled; the PIN was not changed"
        case .changePINInterruptedCardBusy:
            return "interrupted while the card was busy; `eid readers` shows its PIN state"
        case .changePINInputTimeout(let seconds):
            return "no answer within \(seconds) s; the PIN was not changed"
        case .changePINNoTerminal:
            return "no terminal to ask for the PIN on; use --json and send SET_PIN commands on standard input"
        case .establishPACEChannelPUKInoperative:
            return "the PUK can no longer unblock the PIN; ask the citizen office for a new PIN letter"
        case .changePINCardRemoved:
            return "the PIN was not changed: \(CardError.cardRemoved)"
        case .changePINUnexpectedTransmitStatus(let sw):
            return "the PIN was not changed: \(CardError.statusWord(sw))"
        case .changePINUnrecoverable(let error):
            return "the PIN was not changed: \(error)"
        case .readerServiceUnavailable(let error), .readerFailed(let error):
            return "\(error)"
        }
    }

    /// The user ended it. The JSON face prints no sentence for it: its last message
    /// (CHANGE_PIN, `success: false`) says it all.
    public var isCancellation: Bool {
        switch self {
        case .changePINUserCancelled, .changePINInterrupted: return true
        default: return false
        }
    }
}

extension FailureReason {
    /// Why change PIN ended as it did; nil when the PIN was changed. `timeout` is the
    /// workflow's timeout in seconds.
    public init?(_ outcome: ChangePINWorkflow.Outcome, timeout: Double) {
        switch outcome {
        case .changed: return nil
        case .cancelled: self = .changePINUserCancelled
        case .timedOut: self = .changePINInputTimeout(seconds: Int(timeout))
        case .pukInoperative: self = .establishPACEChannelPUKInoperative
        case .cardError(.cardRemoved): self = .changePINCardRemoved
        case .cardError(.statusWord(let sw)): self = .changePINUnexpectedTransmitStatus(sw)
        case .cardError(let error): self = .changePINUnrecoverable(error)
        }
    }

    /// Why the readers could not be listed or watched.
    public init(readerError error: CardError) {
        if case .readerServiceUnavailable = error {
            self = .readerServiceUnavailable(error)
        } else {
            self = .readerFailed(error)
        }
    }
}
