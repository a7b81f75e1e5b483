import OrderedJSON
import SmartCard

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A command ("cmd") of the AusweisApp2 SDK (documentation chapter 5), as eid receives it.
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
    case getReaderList
    case getReader(name: String?)
    case runChangePIN
    /// RUN_AUTH with its tcTokenURL (nil when missing or not a string).
    case runAuth(tcTokenURL: String?)
    case getAccessRights
    /// SET_ACCESS_RIGHTS: the optional rights to enable, by SDK name; nil when `chat` is missing
    /// or not an array of strings (the workflow answers ACCESS_RIGHTS with an error).
    case setAccessRights([String]?)
    case getCertificate
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

    /// Parses one line of input and zeroes it. A line that is not a JSON object gives
    /// `.invalid`, an object without a string "cmd" gives `.invalid`, an unknown name
    /// `.unknownCommand`; these are the SDK messages to answer with.
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
        guard case .object = value else {
            // A bare null has always been "not valid JSON" here (the answer of the decoder
            // eid used before); every other value that is not an object is named as such.
            if value == .null { return .rejected(.invalid(error: "the line is not valid JSON")) }
            return .rejected(.invalid(error: "a command must be a JSON object"))
        }
        // A member that is present, even as null, is not "undefined".
        guard let cmd = value["cmd"] else { return .rejected(.invalid(error: "Command cannot be undefined")) }
        guard case .string(let name) = cmd else { return .rejected(.invalid(error: "Invalid command")) }
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
        case "GET_READER_LIST": return .command(.getReaderList)
        case "GET_READER": return .command(.getReader(name: value["name"]?.string))
        case "RUN_CHANGE_PIN": return .command(.runChangePIN)
        case "RUN_AUTH": return .command(.runAuth(tcTokenURL: value["tcTokenURL"]?.string))
        case "GET_ACCESS_RIGHTS": return .command(.getAccessRights)
        case "GET_CERTIFICATE": return .command(.getCertificate)
        case "SET_ACCESS_RIGHTS":
            guard case .array(let items)? = value["chat"] else { return .command(.setAccessRights(nil)) }
            let names = items.compactMap(\.string)
            return .command(.setAccessRights(names.count == items.count ? names : nil))
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
