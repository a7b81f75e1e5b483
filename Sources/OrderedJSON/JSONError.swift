/// Why a text is not JSON that `JSONValue(parsing:)` accepts. Offsets count bytes from 0; the
/// description names the offset and the rule, never the text itself (it may hold a PIN).
public enum JSONError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text is longer than the limit.
    case tooLarge(limit: Int)
    /// Arrays and objects are nested deeper than the limit.
    case tooDeep(limit: Int, offset: Int)
    /// The text ends inside a value (or is empty).
    case unexpectedEnd
    /// A byte that cannot stand where it stands.
    case unexpectedByte(offset: Int)
    /// A number not written as RFC 8259 allows (leading zeros, `1.`, `.5`, `+1`, `1e`).
    case invalidNumber(offset: Int)
    /// A number too large for a double.
    case numberOutOfRange(offset: Int)
    /// A backslash that is not one of `\" \\ \/ \b \f \n \r \t \uXXXX`.
    case invalidEscape(offset: Int)
    /// A `\u` escape of a UTF-16 surrogate without its other half.
    case unpairedSurrogate(offset: Int)
    /// A control character (below U+0020) written as itself inside a string.
    case unescapedControlCharacter(offset: Int)
    /// A string (starting at `offset`) whose bytes are not UTF-8.
    case invalidUTF8(offset: Int)
    /// An object member whose name an earlier member already has.
    case duplicateKey(offset: Int)
    /// More than whitespace after the value.
    case trailingData(offset: Int)

    public var description: String {
        switch self {
        case .tooLarge(let limit):
            return "the JSON text is longer than \(limit) bytes"
        case .tooDeep(let limit, let offset):
            return "byte \(offset): arrays and objects are nested deeper than \(limit) levels"
        case .unexpectedEnd:
            return "the JSON text ends before its value is complete"
        case .unexpectedByte(let offset):
            return "byte \(offset): not valid JSON here"
        case .invalidNumber(let offset):
            return "byte \(offset): a number must be written as in RFC 8259 (no leading zero, digits after . and e)"
        case .numberOutOfRange(let offset):
            return "byte \(offset): the number is too large"
        case .invalidEscape(let offset):
            return "byte \(offset): an escape must be one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX"
        case .unpairedSurrogate(let offset):
            return "byte \(offset): a \\u escape of a surrogate must be a high and low pair"
        case .unescapedControlCharacter(let offset):
            return "byte \(offset): a control character in a string must be escaped"
        case .invalidUTF8(let offset):
            return "byte \(offset): the string is not valid UTF-8"
        case .duplicateKey(let offset):
            return "byte \(offset): the object already has a member with this name"
        case .trailingData(let offset):
            return "byte \(offset): only whitespace may follow the JSON value"
        }
    }
}
