import OrderedJSON
import SmartCard

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A command ("cmd") of the AusweisApp SDK ("Commands" of its documentation), as eid receives it.
public enum SDKCommand {
    /// SET_PIN, SET_CAN, SET_PUK, SET_NEW_PIN. `value` is nil when the command had none, or
    /// a value that is not a string; the workflow answers that with the ENTER_* message and an
    /// `error`.
    case setSecret(SecretKind, value: Secret?)
    case cancel
    case accept
    case getInfo
    case getAPILevel
    case setAPILevel(APILevel.Request)
    case getStatus
    case getReaderList
    /// GET_READER with its `name`.
    case getReader(name: Member<String>)
    case runChangePIN(WorkflowOptions)
    /// RUN_AUTH with its `tcTokenURL`.
    case runAuth(tcTokenURL: Member<String>, options: WorkflowOptions)
    case getAccessRights
    /// SET_ACCESS_RIGHTS with its `chat` (the workflow answers ACCESS_RIGHTS, with an error when
    /// the choice cannot be taken).
    case setAccessRights(AccessRightsChoice)
    case getCertificate
    /// INTERRUPT (the iOS system dialog; a desktop has none).
    case interrupt
    /// CONTINUE (after PAUSE, API level 3).
    case continueWorkflow
    /// SET_CARD (a card into an insertable reader, API level 2 and later).
    case setCard(name: Member<String>)
    /// Any other command of the SDK; this version of eid answers it with BAD_STATE.
    case other(name: String)

    /// The value of the "cmd" field.
    public var name: String {
        switch self {
        case .setSecret(let kind, _): return kind.commandName
        case .cancel: return "CANCEL"
        case .accept: return "ACCEPT"
        case .getInfo: return "GET_INFO"
        case .getAPILevel: return "GET_API_LEVEL"
        case .setAPILevel: return "SET_API_LEVEL"
        case .getStatus: return "GET_STATUS"
        case .interrupt: return "INTERRUPT"
        case .continueWorkflow: return "CONTINUE"
        case .setCard: return "SET_CARD"
        case .getReaderList: return "GET_READER_LIST"
        case .getReader: return "GET_READER"
        case .runChangePIN: return "RUN_CHANGE_PIN"
        case .runAuth: return "RUN_AUTH"
        case .getAccessRights: return "GET_ACCESS_RIGHTS"
        case .setAccessRights: return "SET_ACCESS_RIGHTS"
        case .getCertificate: return "GET_CERTIFICATE"
        case .other(let name): return name
        }
    }

    /// The member that holds the secret of SET_PIN, SET_CAN, SET_PUK and SET_NEW_PIN.
    static let secretMember = "value"

    /// Every command name of the SDK; a name outside this list is UNKNOWN_COMMAND.
    public static let knownNames: Set<String> = [
        "GET_INFO", "GET_STATUS", "GET_API_LEVEL", "SET_API_LEVEL", "GET_READER", "GET_READER_LIST",
        "RUN_AUTH", "RUN_CHANGE_PIN", "GET_ACCESS_RIGHTS", "SET_ACCESS_RIGHTS", "SET_CARD", "CONTINUE",
        "GET_CERTIFICATE", "CANCEL", "ACCEPT", "INTERRUPT", "SET_PIN", "SET_NEW_PIN", "SET_CAN", "SET_PUK",
    ]

    /// Parses one line of input (a copy of it: the caller's array is not wiped; input read
    /// from outside goes through `parse(wiping:)`).
    public static func parse(_ line: [UInt8]) -> Parsed {
        let copy = LockedBuffer(count: line.count)
        for (i, byte) in line.enumerated() { copy.bytes[i] = byte }
        return parse(wiping: copy.bytes)
    }

    /// Parses one line of input and zeroes it. A line that is not JSON gives `.invalid`; JSON
    /// without a non-empty string "cmd" (another value than an object, a missing, empty or other
    /// "cmd") gives `.invalid` "Command cannot be undefined", as AusweisApp answers it; an
    /// unknown name `.unknownCommand`; these are the SDK messages to answer with.
    ///
    /// The secret of SET_PIN, SET_CAN, SET_PUK and SET_NEW_PIN (a string "value") never becomes a
    /// Swift `String`: the JSON parser decodes it into a locked scratch buffer, from which it goes
    /// into a `Secret`; the scratch and the line are zeroed before this returns. A "value" of any
    /// other command is wiped the same way and ignored.
    public static func parse(wiping line: UnsafeMutableBufferPointer<UInt8>) -> Parsed {
        defer { if let base = line.baseAddress { explicit_bzero(base, line.count) } }
        let scratch = LockedBuffer(count: line.count)
        var secret: Secret?
        let value: JSONValue
        do {
            value = try JSONValue(
                parsing: UnsafeBufferPointer(line), withholding: [secretMember], scratch: scratch.bytes
            ) { _, bytes in
                secret = Secret(consuming: bytes)
            }
        } catch {
            // Never pass the parser's error on either: the line may hold a PIN, and INVALID
            // says the same for every broken line.
            return .rejected(.invalid(error: "the line is not valid JSON"))
        }
        // A bare null has always been "not valid JSON" here (the answer of the decoder eid used
        // before). Any other JSON without a non-empty string "cmd" is a command without a name.
        if value == .null { return .rejected(.invalid(error: "the line is not valid JSON")) }
        guard case .string(let name)? = value["cmd"], !name.isEmpty else {
            return .rejected(.invalid(error: "Command cannot be undefined"))
        }
        guard knownNames.contains(name) else { return .rejected(.unknownCommand(name)) }
        if let kind = SecretKind(commandName: name) {
            return .command(.setSecret(kind, value: secret))
        }
        switch name {
        case "CANCEL": return .command(.cancel)
        case "ACCEPT": return .command(.accept)
        case "GET_INFO": return .command(.getInfo)
        case "GET_API_LEVEL": return .command(.getAPILevel)
        case "SET_API_LEVEL": return .command(.setAPILevel(levelRequest(value["level"])))
        case "GET_STATUS": return .command(.getStatus)
        case "GET_READER_LIST": return .command(.getReaderList)
        case "GET_READER": return .command(.getReader(name: Member(value["name"], \.string)))
        case "RUN_CHANGE_PIN": return .command(.runChangePIN(WorkflowOptions(value)))
        case "RUN_AUTH":
            return .command(
                .runAuth(tcTokenURL: Member(value["tcTokenURL"], \.string), options: WorkflowOptions(value)))
        case "GET_ACCESS_RIGHTS": return .command(.getAccessRights)
        case "GET_CERTIFICATE": return .command(.getCertificate)
        case "SET_ACCESS_RIGHTS": return .command(.setAccessRights(AccessRightsChoice(value["chat"])))
        case "INTERRUPT": return .command(.interrupt)
        case "CONTINUE": return .command(.continueWorkflow)
        case "SET_CARD": return .command(.setCard(name: Member(value["name"], \.string)))
        default: return .command(.other(name: name))
        }
    }

    /// SET_API_LEVEL's `level` member (nil: absent).
    static func levelRequest(_ level: JSONValue?) -> APILevel.Request {
        switch level {
        case nil: return .undefined
        case .integer(let n)?: return .level(n)
        case .number(let x)?: return x == x.rounded() && abs(x) < 1e9 ? .level(Int(x)) : .fraction
        default: return .invalid
        }
    }

    /// The outcome of reading one line: a command, or the message that rejects the line.
    public enum Parsed {
        case command(SDKCommand)
        case rejected(SDKMessage)
    }
}

/// The four secrets a workflow asks for.
public enum SecretKind: String, Sendable, CaseIterable {
    case pin, can, puk, newPIN

    public init?(commandName: String) {
        switch commandName {
        case "SET_PIN": self = .pin
        case "SET_CAN": self = .can
        case "SET_PUK": self = .puk
        case "SET_NEW_PIN": self = .newPIN
        default: return nil
        }
    }

    public var commandName: String {
        switch self {
        case .pin: return "SET_PIN"
        case .can: return "SET_CAN"
        case .puk: return "SET_PUK"
        case .newPIN: return "SET_NEW_PIN"
        }
    }
}
