/// The messages ("msg") of the AusweisApp SDK that eid sends, shaped field by field as in the
/// SDK documentation (AusweisApp 2.5, "Messages"; at API levels 1 and 2 as AusweisApp2 1.26.2
/// sends them: `json(level:)`). Every workflow speaks only these; the terminal and JSON faces
/// render them.
public enum SDKMessage: Equatable, Sendable {
    /// READER_LIST (6.16): all readers.
    case readerList([ReaderInfo])
    /// READER (6.15): a reader or the card in it changed.
    case reader(ReaderInfo)
    /// INSERT_CARD (6.12): the workflow needs a card.
    case insertCard
    /// ENTER_PIN / ENTER_CAN / ENTER_PUK / ENTER_NEW_PIN (6.7-6.10); `error` after an invalid command.
    case enterPIN(error: String? = nil, reader: ReaderInfo)
    case enterCAN(error: String? = nil, reader: ReaderInfo)
    case enterPUK(error: String? = nil, reader: ReaderInfo)
    case enterNewPIN(error: String? = nil, reader: ReaderInfo)
    /// CHANGE_PIN (6.6): without `success` when the workflow starts, with it when it ends;
    /// `reason` (the stable failure code, API level 3) when it failed.
    case changePIN(success: Bool?, reason: String? = nil)
    /// API_LEVEL (6.2): the answer to GET_API_LEVEL (with `available`) and SET_API_LEVEL
    /// (without it, as AusweisApp2 1.26.2; with `error` when the level was refused).
    case apiLevel(error: String?, available: [Int]?, current: Int)
    /// BAD_STATE (6.4): the named command is not allowed now.
    case badState(command: String)
    /// INVALID (6.14): a line that is not a JSON command.
    case invalid(error: String)
    /// UNKNOWN_COMMAND (6.17): a command name the SDK does not have.
    case unknownCommand(String)
    /// INTERNAL_ERROR (6.13).
    case internalError(String?)
    /// INFO (6.11).
    case info(VersionInfo)
    /// AUTH (6.3): without a result when the authentication starts; with the result and the
    /// refresh or communication-error address (`url`) when it ends.
    case auth(result: AuthResult?, url: String?)
    /// AUTH with `error`: RUN_AUTH was refused (its tcTokenURL missing, not a string, or not a
    /// URL with a host) and no workflow started.
    case authRefused(error: String)
    /// READER with `error`: GET_READER without a usable `name`.
    case readerRefused(error: String)
    /// ACCESS_RIGHTS (6.1): what the service asks for; answered by ACCEPT, SET_ACCESS_RIGHTS, CANCEL.
    case accessRights(AccessRightsInfo)
    /// CERTIFICATE (6.5): the answer to GET_CERTIFICATE.
    case certificate(CertificateInfo)
    /// STATUS (API level 2 and later): the running workflow ("AUTH", "CHANGE_PIN"), its
    /// progress in percent, and the question it waits at ("ACCESS_RIGHTS", "ENTER_PIN", …; null
    /// while it works). All three null when no workflow runs (GET_STATUS between workflows).
    case status(workflow: String?, progress: Int?, state: String?)

    /// The value of the "msg" field.
    public var name: String {
        switch self {
        case .readerList: return "READER_LIST"
        case .reader, .readerRefused: return "READER"
        case .insertCard: return "INSERT_CARD"
        case .enterPIN: return "ENTER_PIN"
        case .enterCAN: return "ENTER_CAN"
        case .enterPUK: return "ENTER_PUK"
        case .enterNewPIN: return "ENTER_NEW_PIN"
        case .changePIN: return "CHANGE_PIN"
        case .apiLevel: return "API_LEVEL"
        case .badState: return "BAD_STATE"
        case .invalid: return "INVALID"
        case .unknownCommand: return "UNKNOWN_COMMAND"
        case .internalError: return "INTERNAL_ERROR"
        case .info: return "INFO"
        case .auth, .authRefused: return "AUTH"
        case .accessRights: return "ACCESS_RIGHTS"
        case .certificate: return "CERTIFICATE"
        case .status: return "STATUS"
        }
    }
}

/// The VersionInfo of the INFO message.
public struct VersionInfo: Equatable, Sendable {
    public var name: String
    public var implementationVersion: String
    /// INFO's `AusweisApp` (API level 3): the state of the connection to an AusweisApp an
    /// integrated SDK uses, which only Android has; a desktop says "UNKNOWN".
    public var ausweisApp: String

    public init(name: String = "eid", implementationVersion: String, ausweisApp: String = "UNKNOWN") {
        self.name = name
        self.implementationVersion = implementationVersion
        self.ausweisApp = ausweisApp
    }
}
