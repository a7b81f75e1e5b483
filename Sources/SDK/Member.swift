import OrderedJSON

/// A member of a command as read: absent, present with a value of the wrong type, or its value.
/// The SDK answers the first two with its own errors ("Name cannot be undefined", "Invalid name").
public enum Member<Value: Equatable & Sendable>: Equatable, Sendable {
    case undefined
    case invalid
    case value(Value)

    /// `member` read with `read` (nil: the wrong type).
    init(_ member: JSONValue?, _ read: (JSONValue) -> Value?) {
        guard let member else {
            self = .undefined
            return
        }
        self = read(member).map { .value($0) } ?? .invalid
    }

    public var value: Value? {
        if case .value(let value) = self { return value }
        return nil
    }
}
