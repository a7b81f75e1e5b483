import EAC
import SDK
import Testing

@testable import Faces

/// The face's lines for ACCESS_RIGHTS: AusweisApp's words in AusweisApp's order, required before
/// optional, rights that change the card under a heading of their own; a right that is asked for
/// but not in the effective rights (an optional one left out, or one the service's certificate
/// chain does not grant, which the card would refuse) is marked as not shared.
@Suite struct AccessRightsLinesTests {
    @Test("EID_CLIENT_D_20: a right the chain does not grant is marked not shared")
    func aRightTheChainDoesNotGrantIsMarkedNotShared() {
        let info = AccessRightsInfo(
            effective: ["GivenNames", "FamilyName"], optional: ["FamilyName", "DateOfBirth"],
            required: ["GivenNames", "PlaceOfBirth"])
        let lines = AuthReviewPeer.describe(info)
        #expect(lines.contains("  Given name(s) (required)"))
        #expect(lines.contains("  Place of birth (required, not shared)"))
        #expect(lines.contains("  Family name (optional)"))
        #expect(lines.contains("  Date of birth (optional, not shared)"))
    }

    /// Given in bit order, shown as AusweisApp lists them: Family name first, Address before
    /// Document type, the age check after the nationality.
    @Test("EID_CLIENT_D_05: rights are in AusweisApp's words and order")
    func rightsAreInAusweisAppsWordsAndOrder() {
        let required = ["DocumentType", "GivenNames", "FamilyName", "DateOfBirth", "Address", "AgeVerification"]
        let all = required + ["Nationality", "WriteAddress", "Pseudonym"]
        let info = AccessRightsInfo(
            effective: all, optional: ["Nationality", "Pseudonym", "WriteAddress"], required: required)
        #expect(
            AuthReviewPeer.describe(info) == [
                "The service asks to read:",
                "  Family name (required)",
                "  Given name(s) (required)",
                "  Date of birth (required)",
                "  Address (required)",
                "  Document type (required)",
                "  Age verification (required)",
                "  Pseudonym (optional)",
                "  Nationality (optional)",
                "The service asks to change on the card:",
                "  Address (optional)",
            ])
    }

    @Test func everySDKRightHasWordsOfItsOwn() {
        for right in AccessRight.allCases where right.sdkName != nil {
            #expect(!right.displayText.contains("DG"), "\(right)")
            #expect(AccessRight.displayText(sdkName: right.sdkName!) == right.displayText)
        }
        #expect(AccessRight.displayText(sdkName: "Unknown") == "Unknown")
    }
}
