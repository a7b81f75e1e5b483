/// The API levels of the SDK that eid speaks (GET_API_LEVEL, SET_API_LEVEL, API_LEVEL), as
/// AusweisApp 2.5: levels 1, 2 and 3 available, 3 current until the client sets another. A
/// message keeps the shape of the level the session is at (`SDKMessage.json(level:)`): levels 1
/// and 2 as AusweisApp2 1.26.2 sends them, level 3 as AusweisApp 2.5 does.
public enum APILevel {
    public static let available = [1, 2, 3]
    public static let initial = 3

    /// The `level` of a SET_API_LEVEL as read: a whole number, or why it is none.
    public enum Request: Equatable, Sendable {
        case level(Int)
        /// No `level` member.
        case undefined
        /// A `level` that is not a number.
        case invalid
        /// A number that is not a whole number (AusweisApp reads it as 0, an unknown level).
        case fraction
    }

    /// The API_LEVEL answer to SET_API_LEVEL with `request`, and the level current after it
    /// (unchanged when the request is refused): `current` only, with `error` when refused. The
    /// errors are AusweisApp's words.
    public static func set(_ request: Request, current: Int) -> (message: SDKMessage, current: Int) {
        let error: String
        switch request {
        case .level(let level) where available.contains(level):
            return (.apiLevel(error: nil, available: nil, current: level), level)
        case .level, .fraction: error = "Unknown level"
        case .undefined: error = "Level cannot be undefined"
        case .invalid: error = "Invalid level"
        }
        return (.apiLevel(error: error, available: nil, current: current), current)
    }
}
