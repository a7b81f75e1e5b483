/// Why a card profile (a JSON file or options) cannot make a card. The description names the
/// source and the field and says what is expected; it never contains a password.
public enum CardProfileError: Error, Equatable, Sendable, CustomStringConvertible {
    case unreadable(source: String, reason: String)
    case notJSON(source: String)
    case notAnObject(source: String)
    case unknownField(source: String, field: String)
    case wrongType(source: String, field: String, expected: String)
    /// `found` is set only for values that are not secret (counters).
    case invalidValue(source: String, field: String, requirement: String, found: String?)

    public var description: String {
        switch self {
        case .unreadable(let source, let reason):
            return "\(source): cannot read the profile: \(reason)"
        case .notJSON(let source):
            return "\(source): not valid JSON; a profile is a JSON object such as {\"pin\": \"123456\"}"
        case .notAnObject(let source):
            return "\(source): a profile must be a JSON object such as {\"pin\": \"123456\"}"
        case .unknownField(let source, let field):
            return "\(source): unknown field \"\(field)\"; known fields: "
                + CardProfile.fieldNames.joined(separator: ", ")
        case .wrongType(let source, let field, let expected):
            return "\(source): field \"\(field)\": must be \(expected)"
        case .invalidValue(let source, let field, let requirement, let found):
            return "\(source): field \"\(field)\": \(requirement)" + (found.map { ", found \($0)" } ?? "")
        }
    }
}
