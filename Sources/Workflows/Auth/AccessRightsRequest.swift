import EAC
import SDK

/// What the service asks for and what the user keeps (docs/protocol.md, "Effective authorization";
/// AusweisApp's AccessRightManager): the rights a client may show are those of the terminal certificate that
/// TR-03127 defines; the required ones are RequiredCHAT's, the optional ones OptionalCHAT's less the required
/// (all shown rights when neither CHAT is sent); CAN allowed is never required, and optional only for an
/// official domestic DV. The effective CHAT is required ∪ (optional ∩ the user's choice). Of these, the card
/// grants only those the whole certificate chain grants (TR-03110-3: the AND of the CVCA's, DV's and
/// terminal's CHATs); `granted` is what the user is shown as shared, so a terminal certificate beyond its DV
/// does not overstate it (AusweisApp shows the terminal certificate's rights; this is the card's view).
public struct AccessRightsRequest: Equatable, Sendable {
    public let required: Set<AccessRight>
    public let optional: Set<AccessRight>
    /// The optional rights the user keeps (all of them until the user says otherwise).
    public private(set) var selected: Set<AccessRight>
    /// The rights the certificate chain grants (its effective CHAT); the terminal's without a chain.
    public let grantable: Set<AccessRight>

    /// The rights a client may show (AusweisApp's list, after TR-03127).
    public static let displayable: Set<AccessRight> = Set(
        (8...17).compactMap { AccessRight(rawValue: $0) } + [
            .readDG13, .readDG17, .readDG18, .readDG19, .readDG20, .restrictedIdentification, .ageVerification,
            .communityIDVerification, .installCertificate, .installQualifiedCertificate, .writeDG17, .writeDG18,
            .writeDG19, .writeDG20, .pinManagement,
        ])

    /// The SDK's display order (AusweisApp's, as its ACCESS_RIGHTS and its screens list them);
    /// rights not in it follow by bit number.
    public static let displayOrder: [AccessRight] = [
        .readDG5, .readDG13, .readDG4, .readDG7, .readDG8, .readDG9, .readDG17, .readDG1, .readDG3,
        .restrictedIdentification, .readDG10, .readDG6, .ageVerification, .communityIDVerification, .readDG2,
        .readDG18, .readDG19, .readDG20, .installQualifiedCertificate, .installCertificate, .writeDG17, .writeDG18,
        .writeDG19, .writeDG20, .pinManagement, .canAllowed,
    ]

    /// - Throws: `AuthCheckError.requiredCHATExceedsTerminal` when RequiredCHAT asks for more than
    ///   the terminal certificate grants.
    ///   `chain` is the chain's effective CHAT (`CVCertificateChain.effectiveCHAT`); rights beyond
    ///   it stay requested (the card ANDs them away, as it does for every client) but not `granted`.
    public init(
        terminal: CHAT, documentVerifierRole: CertificateRole, requiredCHAT: CHAT?, optionalCHAT: CHAT?,
        chain: CHAT? = nil
    ) throws(AuthCheckError) {
        if let requiredCHAT, !requiredCHAT.isWithin(terminal) { throw .requiredCHATExceedsTerminal }
        let allowed = terminal.accessRights.intersection(Self.displayable)
        let required = (requiredCHAT?.accessRights ?? []).intersection(allowed)
        var optional: Set<AccessRight>
        if requiredCHAT == nil && optionalCHAT == nil {
            optional = allowed
        } else {
            optional = (optionalCHAT?.accessRights ?? []).intersection(allowed)
        }
        optional.subtract(required)
        if terminal.accessRights.contains(.canAllowed) && documentVerifierRole == .dvOfficialDomestic {
            optional.insert(.canAllowed)
        }
        self.required = required
        self.optional = optional
        self.selected = optional
        grantable = (chain ?? terminal).accessRights
    }

    /// The rights that go to the card: required ∪ (optional ∩ selected).
    public var effective: Set<AccessRight> { required.union(optional.intersection(selected)) }

    /// The effective rights the card will grant: `effective` ∩ the chain's rights.
    public var granted: Set<AccessRight> { effective.intersection(grantable) }

    /// The effective CHAT for PACE and EAC1 (role terminal, id-AT).
    public var effectiveCHAT: CHAT { CHAT(role: .terminal, rights: effective) }

    /// SET_ACCESS_RIGHTS: `choice` lists the optional rights to keep. A choice that cannot be
    /// taken changes nothing and gives the error for ACCESS_RIGHTS, in AusweisApp's words and
    /// order: no `chat`, `chat` not a list, a service without optional rights, then per entry
    /// one that is not a string or no right's name (both stop there), or a right that is not
    /// optional here (the others are still looked at).
    public mutating func select(_ choice: AccessRightsChoice) -> String? {
        let entries: [String?]
        switch choice {
        case .undefined: return "'chat' cannot be undefined"
        case .notAList: return "Invalid 'chat' data"
        case .entries(let list): entries = list
        }
        guard !optional.isEmpty else { return "No optional access rights available" }
        var chosen: Set<AccessRight> = []
        var error: String?
        for entry in entries {
            guard let name = entry else {
                error = "Entry in 'chat' data needs to be string"
                break
            }
            guard let right = AccessRight(sdkName: name) else {
                error = "Entry in 'chat' data is invalid"
                break
            }
            if optional.contains(right) {
                chosen.insert(right)
            } else {
                error = "Entry in 'chat' data is not available"
            }
        }
        if error == nil { selected = chosen }
        return error
    }

    /// The SDK names of `rights` in the SDK's display order (rights without an SDK name are left out).
    public static func sdkNames(_ rights: Set<AccessRight>) -> [String] {
        let ordered = displayOrder.filter(rights.contains) + rights.subtracting(displayOrder).sorted()
        return ordered.compactMap(\.sdkName)
    }
}
