import OrderedJSON

/// The members of RUN_AUTH and RUN_CHANGE_PIN that shape the workflow they start. A member that
/// is not a boolean counts as absent, as in AusweisApp. `messages` (texts of the iOS system
/// dialog) is accepted and ignored: a desktop has no such dialog.
public struct WorkflowOptions: Equatable, Sendable {
    /// `status`: automatic STATUS messages (API level 2 and later); default true.
    public var status: Bool
    /// `developerMode` (RUN_AUTH): for this workflow only, test cards and the relaxed checks of
    /// TR-03124-1's developer mode; nil when not given.
    public var developerMode: Bool?
    /// `handleInterrupt` (API level 1 only, iOS): read and kept; a desktop has nothing to interrupt.
    public var handleInterrupt: Bool?

    public init(status: Bool = true, developerMode: Bool? = nil, handleInterrupt: Bool? = nil) {
        self.status = status
        self.developerMode = developerMode
        self.handleInterrupt = handleInterrupt
    }

    init(_ command: JSONValue) {
        self.init(
            status: command["status"]?.bool ?? true, developerMode: command["developerMode"]?.bool,
            handleInterrupt: command["handleInterrupt"]?.bool)
    }
}

/// SET_ACCESS_RIGHTS' `chat` as read.
public enum AccessRightsChoice: Equatable, Sendable {
    /// No `chat` member.
    case undefined
    /// `chat` is not an array.
    case notAList
    /// The entries: a right's SDK name, or nil for an entry that is not a string.
    case entries([String?])

    init(_ chat: JSONValue?) {
        switch chat {
        case nil: self = .undefined
        case .array(let items)?: self = .entries(items.map(\.string))
        default: self = .notAList
        }
    }
}
