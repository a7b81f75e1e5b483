import EAC
import Foundation
import SmartCard
import TestPKI
import Testing

@testable import CardSimulator

/// The profile's eID fields: dataGroups over the sample, cvca (trust anchors), date.
@Suite struct CardProfileEIDTests {
    func decode(_ json: String) throws -> CardProfile {
        try CardProfile.decode(Data(json.utf8), source: "profile.json")
    }

    func message(_ json: String) -> String {
        do {
            _ = try decode(json)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test func withoutDataGroupsTheCardHoldsTheSample() throws {
        let profile = try decode("{}")
        #expect(profile.dataGroups == EIDSampleData.dataGroups)
        #expect(profile.trustAnchors == nil && profile.date == nil)
        let card = SimulatedEIDCard(profile: profile)
        #expect(card.withContext { $0.fileSystem.eIDDataGroups } == EIDSampleData.dataGroups)
        #expect(card.withContext { $0.trustAnchors } == [TestCertificateAuthority.project.certificate])
        #expect(card.withContext { $0.currentDate } == CalendarDate.todayUTC())
    }

    @Test func dataGroupsAreTextDERPlacesOrRemoved() throws {
        let profile = try decode(
            """
            {"dataGroups": {"DG4": "Anna-Lena Øyvind", "DG5": "VON DER ÜBERLÄNGE-NACHNAMENSTRÄGERIN",
             "DG8": "19990101", "DG12": {"der": "6c03020100"}, "DG9": {"city": "MÜNCHEN", "country": "D"},
             "DG18": "02760911620000", "DG21": null}}
            """)
        #expect(profile.dataGroups[4] == [0x64, 0x13, 0x0C, 0x11] + Array("Anna-Lena Øyvind".utf8))
        #expect(profile.dataGroups[8]?.hexString == "680a1208" + Array("19990101".utf8).hexString)
        #expect(profile.dataGroups[12] == [0x6C, 0x03, 0x02, 0x01, 0x00])
        #expect(
            profile.dataGroups[9]?.hexString
                == "6913" + "3011" + "ab0a0c084dc39c4e4348454e" + "ad03130144")
        #expect(profile.dataGroups[18]?.hexString == "7209040702760911620000")
        #expect(profile.dataGroups[21] == nil)
        #expect(profile.dataGroups[1] == EIDSampleData.dataGroups[1])  // the rest stays the sample
        // The JSON form keeps only what differs, and reads back to the same profile.
        let text = String(decoding: profile.jsonData(), as: UTF8.self)
        #expect(text.contains(#""DG21":null"#) && !text.contains(#""DG1""#))
        #expect(try CardProfile.decode(profile.jsonData(), source: "x").dataGroups == profile.dataGroups)
    }

    @Test(arguments: [
        (#"{"dataGroups": {"DG22": "x"}}"#, #"field "dataGroups.DG22": must be named DG1 ... DG21"#),
        (#"{"dataGroups": {"DG04": "x"}}"#, #"field "dataGroups.DG04": must be named DG1 ... DG21"#),
        (#"{"dataGroups": {"DG3": "2034-06-30"}}"#, #"field "dataGroups.DG3": must be a date YYYYMMDD"#),
        (#"{"dataGroups": {"DG1": "ÄD"}}"#, #"field "dataGroups.DG1": must be a PrintableString"#),
        (#"{"dataGroups": {"DG12": "x"}}"#, #"field "dataGroups.DG12": has no text form"#),
        (
            #"{"dataGroups": {"DG4": {"der": "650100"}}}"#,
            #"field "dataGroups.DG4": must be one DER object with tag 64"#
        ),
        (#"{"dataGroups": {"DG4": 4}}"#, #"field "dataGroups.DG4": must be a string, an object or null"#),
        (#"{"dataGroups": {"DG4": {"city": "X", "country": "D"}}}"#, #"field "dataGroups.DG4": is not a place"#),
        (#"{"dataGroups": {"DG17": {"city": "X"}}}"#, #"field "dataGroups.DG17": must be {"der": hex} or a place"#),
        (#"{"dataGroups": []}"#, #"field "dataGroups": must be an object"#),
        (#"{"date": "2026-13-01"}"#, #"field "date": must be a date YYYY-MM-DD, found 2026-13-01"#),
        (#"{"cvca": ["7f21"]}"#, #"field "cvca": must hold CV certificates (7F21) in hex"#),
        (#"{"cvca": "7f21"}"#, #"field "cvca": must be an array of hex strings"#),
    ])
    func badEIDFieldsNameTheField(json: String, expected: String) {
        let text = message(json)
        #expect(text.hasPrefix("profile.json: " + expected), "\(text)")
    }

    @Test func trustAnchorsAndDateComeFromTheProfileOrTheOptions() throws {
        let cvca = try TestCertificateAuthority.project.certificate.encoded.hexString
        let profile = try decode(#"{"cvca": ["\#(cvca)"], "date": "2027-01-31"}"#)
        #expect(profile.trustAnchors == [TestCertificateAuthority.project.certificate])
        #expect(profile.date == CalendarDate(year: 2027, month: 1, day: 31))
        let reread = try CardProfile.decode(profile.jsonData(), source: "x")
        #expect(reread.trustAnchors == profile.trustAnchors && reread.date == profile.date)
        let today = CalendarDate(year: 2026, month: 11, day: 23)!
        let other = try TestCertificateAuthority.generate(
            holderReference: "DEEIDOTHER00001", effectiveDate: today, expirationDate: try today.adding(days: 30))
        let overridden = profile.applying(.init(trustAnchors: [other.certificate], date: today))
        let card = SimulatedEIDCard(profile: overridden)
        #expect(card.withContext { $0.trustAnchors } == [other.certificate])
        #expect(card.withContext { $0.currentDate } == today)
    }
}
