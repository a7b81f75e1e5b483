import EAC

/// The data the server asks the card for (`serve --attributes LIST`): data groups it requires
/// (the required CHAT) and data groups the user may leave out (the optional CHAT).
///
/// LIST is comma-separated; a name ending in `?` is optional, any other required. A name is the
/// AusweisApp2 SDK's (GivenNames, FamilyName, DateOfBirth, Address, …), the TR-03127 word of the
/// data group without spaces (FamilyNames, DateOfExpiry, NormalPlaceOfResidence, …) or `DGn`,
/// in any case. Only reads the server reports can be asked for: DG1–DG10, DG13, DG17–DG20.
public struct RequestedAttributes: Equatable, Sendable {
    public var required: Set<AccessRight>
    public var optional: Set<AccessRight>

    /// Every readable data group, required (what the server asks for without `--attributes`).
    public static let all = RequestedAttributes(
        required: SessionConfiguration.defaultRequiredRights, optional: [])

    public init(required: Set<AccessRight>, optional: Set<AccessRight>) {
        self.required = required
        self.optional = optional.subtracting(required)
    }

    public init(parsing list: String) throws(RequestedAttributesError) {
        var required: Set<AccessRight> = []
        var optional: Set<AccessRight> = []
        for item in list.split(separator: ",", omittingEmptySubsequences: false) {
            var name = item.trimmingPrefix(while: \.isWhitespace)
            while name.last?.isWhitespace == true { name = name.dropLast() }
            let isOptional = name.hasSuffix("?")
            if isOptional { name = name.dropLast() }
            guard !name.isEmpty else { throw .emptyName }
            guard let right = RequestedAttributes.right(named: String(name)) else {
                throw .unknown(String(name))
            }
            if isOptional { optional.insert(right) } else { required.insert(right) }
        }
        guard !required.isEmpty || !optional.isEmpty else { throw .emptyName }
        self.init(required: required, optional: optional)
    }

    /// The read right `name` stands for, when the server can ask for it.
    static func right(named name: String) -> AccessRight? {
        let key = normalized(name)
        return SessionConfiguration.defaultRequiredRights.first { right in
            guard let group = right.dataGroup else { return false }
            let names = [right.sdkName, AccessRight.dataGroupWords[group], "DG\(group)"].compactMap { $0 }
            return names.contains { normalized($0) == key }
        }
    }

    private static func normalized(_ name: String) -> String {
        String(name.lowercased().filter { $0.isLetter || $0.isNumber })
    }

    /// The names `--attributes` accepts, one per readable data group (SDK names).
    public static var names: [String] {
        SessionConfiguration.defaultRequiredRights.sorted().compactMap(\.sdkName)
    }
}

/// Why an attribute list cannot be read.
public enum RequestedAttributesError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The list or one of its items is empty.
    case emptyName
    /// A name that is no data group the server can read.
    case unknown(String)

    public var description: String {
        switch self {
        case .emptyName:
            return "an attribute name is empty: give names separated by commas, e.g. GivenNames,FamilyName,DateOfBirth?"
        case .unknown(let name):
            return "\(name) is not a data group the server can read; use one of "
                + RequestedAttributes.names.joined(separator: ", ") + " (a trailing ? makes it optional)"
        }
    }
}
