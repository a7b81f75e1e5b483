import Online
import OrderedJSON
import SmartCard

/// One message from the phone, read strictly: a JSON object with a known "msg", a ContextHandle
/// (all but IFDEstablishContextResponse and IFDError), and for responses a known ResultMajor and
/// a ResultMinor when the result is not ok. Anything else is `RemoteIFDError.malformedMessage`,
/// which names the field, never the text.
public struct IFDIncomingMessage: Sendable {
    public var type: IFDMessageType
    public var contextHandle: String?
    /// The result of a response; nil for IFDStatus.
    public var result: IFDResult?
    /// The whole object, for the fields of each message type.
    public var body: JSONValue

    /// The limits for a frame: a Transmit response holds at most 64 KiB of APDU (128 KiB of hex).
    public static let limits = JSONLimits(maxBytes: 256 * 1024, maxDepth: 4)

    public init(text: String) throws(RemoteIFDError) {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: Array(text.utf8), limits: Self.limits)
        } catch {
            throw .malformedMessage("not JSON: \(error)")
        }
        guard case .object = value else { throw .malformedMessage("not a JSON object") }
        body = value
        let name = try Self.string(value, "msg")
        guard let type = IFDMessageType(rawValue: name) else {
            throw .malformedMessage("msg is not an IFD message type")
        }
        self.type = type
        if type == .establishContextResponse || type == .error {
            contextHandle = try Self.optionalString(value, "ContextHandle")
        } else {
            contextHandle = try Self.string(value, "ContextHandle")
        }
        result = type.isResponse ? try Self.result(value) : nil
    }

    /// The string member `key`, required.
    public func string(_ key: String) throws(RemoteIFDError) -> String { try Self.string(body, key) }

    /// The boolean member `key`, required.
    public func bool(_ key: String) throws(RemoteIFDError) -> Bool {
        guard case .bool(let b)? = body[key] else { throw .malformedMessage("\(key) is not a boolean") }
        return b
    }

    /// The hex string member `key` as bytes (either case).
    public func hex(_ key: String) throws(RemoteIFDError) -> [UInt8] {
        guard let bytes = [UInt8](hex: try string(key)) else { throw .malformedMessage("\(key) is not hex") }
        return bytes
    }

    static func string(_ value: JSONValue, _ key: String) throws(RemoteIFDError) -> String {
        guard let s = value[key]?.string else { throw .malformedMessage("\(key) is missing or not a string") }
        return s
    }

    static func optionalString(_ value: JSONValue, _ key: String) throws(RemoteIFDError) -> String? {
        switch value[key] {
        case nil, .null?: return nil
        case .string(let s)?: return s
        default: throw .malformedMessage("\(key) is not a string")
        }
    }

    static func result(_ value: JSONValue) throws(RemoteIFDError) -> IFDResult {
        let majorURI = try string(value, "ResultMajor")
        guard let major = ECardAPIResult.Major(rawValue: majorURI) else {
            throw .malformedMessage("unknown ResultMajor")
        }
        let minor = try optionalString(value, "ResultMinor")
        if major != .ok && minor == nil { throw .malformedMessage("ResultMinor is missing") }
        return IFDResult(major: major, minorURI: major == .ok ? nil : minor)
    }
}
