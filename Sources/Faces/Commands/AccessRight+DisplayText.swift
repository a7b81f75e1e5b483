import EAC
import Workflows

/// The rights as AusweisApp words them on its screens (English; its display texts after TR-03127
/// annex C, e.g. "Family name", "Address", "Given name(s)"), in the order it lists them
/// (`AccessRightsRequest.displayOrder`). The TR-03127 words with the data group number
/// ("Read DG5 (Family names)") stay `AccessRight.description`, for certificates.
extension AccessRight {
    /// AusweisApp's words for the right; a write right has the same words as its data group (the
    /// face shows it under its own heading).
    var displayText: String {
        switch self {
        case .readDG1: return "Document type"
        case .readDG2: return "Issuing country"
        case .readDG3: return "Valid until"
        case .readDG4: return "Given name(s)"
        case .readDG5: return "Family name"
        case .readDG6: return "Religious / artistic name"
        case .readDG7: return "Doctoral degree"
        case .readDG8: return "Date of birth"
        case .readDG9: return "Place of birth"
        case .readDG10: return "Nationality"
        case .readDG11: return "Gender"
        case .readDG13: return "Birth name"
        case .readDG17, .writeDG17: return "Address"
        case .readDG18, .writeDG18: return "Community-ID"
        case .readDG19, .writeDG19: return "Residence permit I"
        case .readDG20, .writeDG20: return "Residence permit II"
        case .readDG12, .readDG21, .readDG22, .writeDG21, .writeDG22: return "Optional data"
        case .readDG14, .readDG15, .readDG16: return "RFU"
        case .restrictedIdentification, .pseudonymousSignatureAuthentication: return "Pseudonym"
        case .ageVerification: return "Age verification"
        case .communityIDVerification: return "Address verification"
        case .installQualifiedCertificate: return "Installation of qualified signature certificates"
        case .installCertificate: return "Installation of signature certificates"
        case .pinManagement: return "PIN Management"
        case .canAllowed: return "CAN allowed"
        case .privilegedTerminal: return "Privileged terminal"
        case .rfu31: return "Unknown (reserved)"
        }
    }

    /// Whether AusweisApp lists the right under write access (it changes the card).
    var isWriteRight: Bool {
        switch self {
        case .writeDG17, .writeDG18, .writeDG19, .writeDG20, .writeDG21, .writeDG22, .pinManagement: return true
        default: return false
        }
    }

    /// The words for an SDK right name (the name itself when unknown).
    static func displayText(sdkName: String) -> String {
        AccessRight(sdkName: sdkName)?.displayText ?? sdkName
    }

    /// SDK right names in AusweisApp's order; unknown names last, as given.
    static func displayOrdered(_ sdkNames: [String]) -> [String] {
        let order = AccessRightsRequest.displayOrder
        func rank(_ name: String) -> Int {
            guard let right = AccessRight(sdkName: name) else { return Int.max }
            return order.firstIndex(of: right) ?? order.count + right.rawValue
        }
        return sdkNames.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(
            \.element)
    }
}
