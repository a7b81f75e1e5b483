/// A JSON value (RFC 8259) whose object members keep the order they were written in: the SDK
/// messages print with "msg" first and their fields in the order of the SDK documentation,
/// and a parsed object lists its members as they came.
///
/// Made from text by `init(parsing:limits:)`, turned into text by `text`.
public indirect enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    /// A number written without fraction or exponent that fits an `Int`.
    case integer(Int)
    /// Any other number: with a fraction or an exponent, or an integer beyond `Int`.
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// The members in order; parsed objects never have two members with the same name.
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.integer(let a), .integer(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// The value of the member `key` of an object; nil when there is no such member or this is
    /// not an object (a member that is present with the value null gives `.null`).
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    /// The string, if this is a string.
    public var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The boolean, if this is one.
    public var bool: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }
}
