/// One bit of an authentication terminal's relative authorization (the 5-byte discretionary
/// data of an id-AT CHAT; BSI TR-03110-4, 2.2.3.2; meanings and words of TR-03127 annex C).
/// The raw value is the bit number counted from the least significant bit of the 40-bit value;
/// bits 38-39 are the role (`CertificateRole`), not a right.
public enum AccessRight: Int, CaseIterable, Comparable, Sendable, CustomStringConvertible {
    case ageVerification = 0
    case communityIDVerification = 1
    case restrictedIdentification = 2
    case privilegedTerminal = 3
    case canAllowed = 4
    case pinManagement = 5
    case installCertificate = 6
    case installQualifiedCertificate = 7
    case readDG1 = 8
    case readDG2, readDG3, readDG4, readDG5, readDG6, readDG7, readDG8, readDG9, readDG10
    case readDG11, readDG12, readDG13, readDG14, readDG15, readDG16, readDG17, readDG18, readDG19, readDG20
    case readDG21, readDG22
    /// Pseudonymous signature authentication (RFU in older TR versions).
    case pseudonymousSignatureAuthentication = 30
    /// Reserved for future use.
    case rfu31 = 31
    case writeDG22 = 32
    case writeDG21, writeDG20, writeDG19, writeDG18, writeDG17

    /// The bit's position: byte index in the 5-byte value (0 = first after `53 05`) and mask.
    public var position: (byte: Int, mask: UInt8) { (4 - rawValue / 8, UInt8(1) << (rawValue % 8)) }

    /// The data group a read or write right is about, or nil for the function rights.
    public var dataGroup: Int? {
        switch rawValue {
        case 8...29: return rawValue - 7
        case 32...37: return 54 - rawValue
        default: return nil
        }
    }

    /// The name the AusweisApp2 SDK gives this right in ACCESS_RIGHTS and SET_ACCESS_RIGHTS
    /// (SDK documentation, "ACCESS_RIGHTS" values; PinManagement as AusweisApp's AccessRightNames),
    /// or nil when the SDK does not expose it.
    public var sdkName: String? {
        switch self {
        case .readDG17: return "Address"
        case .readDG13: return "BirthName"
        case .readDG5: return "FamilyName"
        case .readDG4: return "GivenNames"
        case .readDG9: return "PlaceOfBirth"
        case .readDG8: return "DateOfBirth"
        case .readDG7: return "DoctoralDegree"
        case .readDG6: return "ArtisticName"
        case .restrictedIdentification: return "Pseudonym"
        case .readDG3: return "ValidUntil"
        case .readDG10: return "Nationality"
        case .readDG2: return "IssuingCountry"
        case .readDG1: return "DocumentType"
        case .readDG19: return "ResidencePermitI"
        case .readDG20: return "ResidencePermitII"
        case .readDG18: return "CommunityID"
        case .communityIDVerification: return "AddressVerification"
        case .ageVerification: return "AgeVerification"
        case .writeDG17: return "WriteAddress"
        case .writeDG18: return "WriteCommunityID"
        case .writeDG19: return "WriteResidencePermitI"
        case .writeDG20: return "WriteResidencePermitII"
        case .canAllowed: return "CanAllowed"
        case .pinManagement: return "PinManagement"
        default: return nil
        }
    }

    /// The right for an SDK name (exact spelling), or nil.
    public init?(sdkName: String) {
        guard let right = AccessRight.allCases.first(where: { $0.sdkName == sdkName }) else { return nil }
        self = right
    }

    /// The TR-03127 words for the right (English), e.g. "Read DG1 (Document type)".
    public var description: String {
        switch self {
        case .ageVerification: return "Age verification"
        case .communityIDVerification: return "Community ID verification"
        case .restrictedIdentification: return "Restricted identification"
        case .privilegedTerminal: return "Privileged terminal"
        case .canAllowed: return "CAN allowed"
        case .pinManagement: return "PIN management"
        case .installCertificate: return "Install certificate"
        case .installQualifiedCertificate: return "Install qualified certificate"
        case .pseudonymousSignatureAuthentication: return "Pseudonymous signature authentication"
        case .rfu31: return "RFU (bit 31)"
        default:
            let dg = dataGroup ?? 0
            let verb = rawValue >= 32 ? "Write" : "Read"
            return "\(verb) DG\(dg) (\(AccessRight.dataGroupWords[dg] ?? "Optional data"))"
        }
    }

    /// The TR-03127 names of the eID application's data groups.
    public static let dataGroupWords: [Int: String] = [
        1: "Document type", 2: "Issuing state", 3: "Date of expiry", 4: "Given names", 5: "Family names",
        6: "Religious / artistic name", 7: "Doctoral degree", 8: "Date of birth", 9: "Place of birth",
        10: "Nationality", 11: "Sex", 12: "Optional data", 13: "Birth name", 14: "RFU", 15: "RFU", 16: "RFU",
        17: "Normal place of residence", 18: "Community ID", 19: "Residence permit I", 20: "Residence permit II",
        21: "Optional data", 22: "Optional data",
    ]

    public static func < (lhs: AccessRight, rhs: AccessRight) -> Bool { lhs.rawValue < rhs.rawValue }
}
