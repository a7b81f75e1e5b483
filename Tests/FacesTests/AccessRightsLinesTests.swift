import EAC
import SDK
import Testing

@testable import Faces

/// The terminal face's lines for ACCESS_RIGHTS: a right that is asked for but not in the effective
/// rights (an optional one left out, or one the service's certificate chain does not grant, which
/// the card would refuse) is marked as not shared.
@Suite struct AccessRightsLinesTests {
    @Test func aRightTheChainDoesNotGrantIsMarkedNotShared() {
        let info = AccessRightsInfo(
            effective: ["GivenNames", "FamilyName"], optional: ["FamilyName", "DateOfBirth"],
            required: ["GivenNames", "PlaceOfBirth"])
        let lines = AuthReviewPeer.describe(info)
        #expect(lines.contains("  \(AccessRight.readDG4) (required)"))
        #expect(lines.contains("  \(AccessRight.readDG9) (required, not shared)"))
        #expect(lines.contains("  \(AccessRight.readDG5) (optional)"))
        #expect(lines.contains("  \(AccessRight.readDG8) (optional, not shared)"))
    }
}
