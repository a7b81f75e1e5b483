import EAC
import TestVectors
import Testing

@Suite("Authenticated auxiliary data (tag 67)")
struct AuthenticatedAuxiliaryDataTests {
    @Test func decodesAndReencodesTheFixture() throws {
        let vector = try CVCVector("detesteid_eac1")
        let bytes = try hex(vector.values["authenticated_auxiliary_data"] as? String ?? "")
        let aux = try AuthenticatedAuxiliaryData(encoded: bytes)
        #expect(aux.ageVerificationDate == CalendarDate(year: 1992, month: 12, day: 6))
        #expect(aux.documentValidityDate == CalendarDate(year: 2013, month: 12, day: 6))
        #expect(aux.communityID == [0x02, 0x76, 0x04, 0x00, 0x11, 0x00, 0x00])
        #expect(AuthenticatedAuxiliaryData(aux.elements).encoded == bytes)
        #expect(aux.encoded == bytes)
    }

    @Test func decodesTheLogsValidityOnlyData() throws {
        let aux = try AuthenticatedAuxiliaryData(encoded: try hex("67177315060904007f00070301040253083230323230373236"))
        #expect(aux.elements == [.documentValidity(CalendarDate(year: 2022, month: 7, day: 26)!)])
        #expect(aux.ageVerificationDate == nil && aux.communityID == nil)
    }

    @Test func encodesEachElement() throws {
        let aux = AuthenticatedAuxiliaryData([
            .ageVerification(CalendarDate(year: 2008, month: 11, day: 23)!), .communityID([0x02, 0x76]),
        ])
        #expect(
            aux.encoded
                == (try hex(
                    "6728" + "7315060904007f000703010401" + "53083230303831313233" + "730f060904007f000703010403"
                        + "53020276")))
        #expect(try AuthenticatedAuxiliaryData(encoded: aux.encoded) == aux)
    }

    @Test func refusesMalformedData() throws {
        // 30 February, non-digits, truncated, trailing bytes, a template without 53.
        #expect(throws: CVCertificateError.invalidDate(tag: 0x53)) {
            try AuthenticatedAuxiliaryData(encoded: try hex("67177315060904007f00070301040153083230323230323330"))
        }
        #expect(throws: CVCertificateError.invalidDate(tag: 0x53)) {
            try AuthenticatedAuxiliaryData(encoded: try hex("67177315060904007f000703010401530832303232303732ff"))
        }
        #expect(throws: CVCertificateError.truncated(inside: 0x67)) {
            try AuthenticatedAuxiliaryData(encoded: try hex("67177315060904007f000703010402530832303232303732"))
        }
        #expect(throws: CVCertificateError.trailingBytes(after: 0x67, count: 1)) {
            try AuthenticatedAuxiliaryData(encoded: try hex("67177315060904007f0007030104025308323032323037323600"))
        }
        #expect(throws: CVCertificateError.missingField(0x53)) {
            try AuthenticatedAuxiliaryData(encoded: try hex("670d730b060904007f000703010402"))
        }
    }
}
