import EAC
import TestVectors
import Testing

@Suite("CHAT of authentication terminals (TR-03110-4 2.2.3, TR-03127 names)")
struct CHATTests {
    @Test func thirtyEightRightsWithDistinctBits() {
        #expect(AccessRight.allCases.count == 38)
        #expect(Set(AccessRight.allCases.map(\.rawValue)) == Set(0...37))
        #expect(Set(AccessRight.allCases.map(\.description)).count == 38)
    }

    @Test func bitPositionsFollowTheTable() throws {
        // docs/protocol.md, "CHAT": byte:mask.
        let expected: [AccessRight: (Int, UInt8)] = [
            .writeDG17: (0, 0x20), .writeDG21: (0, 0x02), .writeDG22: (0, 0x01), .rfu31: (1, 0x80),
            .pseudonymousSignatureAuthentication: (1, 0x40), .readDG17: (1, 0x01), .readDG20: (1, 0x08),
            .readDG16: (2, 0x80), .readDG9: (2, 0x01), .readDG8: (3, 0x80), .readDG1: (3, 0x01),
            .installQualifiedCertificate: (4, 0x80), .installCertificate: (4, 0x40), .pinManagement: (4, 0x20),
            .canAllowed: (4, 0x10), .privilegedTerminal: (4, 0x08), .restrictedIdentification: (4, 0x04),
            .communityIDVerification: (4, 0x02), .ageVerification: (4, 0x01),
        ]
        for (right, (byte, mask)) in expected {
            #expect(right.position.byte == byte && right.position.mask == mask, "\(right)")
        }
        #expect(AccessRight.readDG13.description == "Read DG13 (Birth name)")
        #expect(AccessRight.writeDG19.description == "Write DG19 (Residence permit I)")
    }

    @Test func workedDecodes() throws {
        // A real server's RequiredCHAT (the Governikus test server's, in AusweisApp's test log) and a
        // fixture's required and optional CHATs (docs/protocol.md, "CHAT").
        let log = try CHAT(encoded: try hex("7f4c12060904007f0007030102025305" + "000513ff00"))
        #expect(log.role == .terminal)
        #expect(
            log.accessRights == [
                .readDG1, .readDG2, .readDG3, .readDG4, .readDG5, .readDG6, .readDG7, .readDG8, .readDG9, .readDG10,
                .readDG13, .readDG17, .readDG19,
            ])
        let required = try CHAT(encoded: try hex("7f4c12060904007f0007030102025305" + "0001137c05"))
        #expect(
            required.accessRights == [
                .readDG3, .readDG4, .readDG5, .readDG6, .readDG7, .readDG9, .readDG10, .readDG13, .readDG17,
                .restrictedIdentification, .ageVerification,
            ])
        let optional = try CHAT(encoded: try hex("7f4c12060904007f0007030102025305" + "0004008302"))
        #expect(optional.accessRights == [.readDG1, .readDG2, .readDG8, .readDG19, .communityIDVerification])
        #expect(CHAT(role: .terminal, rights: optional.accessRights) == optional)
        #expect(optional.encoded == (try hex("7f4c12060904007f0007030102025305" + "0004008302")))
    }

    @Test func sdkNamesAreTheDocumentedOnes() {
        // The SDK documentation's ACCESS_RIGHTS values (plus AusweisApp's PinManagement).
        let documented = [
            "Address", "BirthName", "FamilyName", "GivenNames", "PlaceOfBirth", "DateOfBirth", "DoctoralDegree",
            "ArtisticName", "Pseudonym", "ValidUntil", "Nationality", "IssuingCountry", "DocumentType",
            "ResidencePermitI", "ResidencePermitII", "CommunityID", "AddressVerification", "AgeVerification",
            "WriteAddress", "WriteCommunityID", "WriteResidencePermitI", "WriteResidencePermitII", "CanAllowed",
            "PinManagement",
        ]
        #expect(Set(AccessRight.allCases.compactMap(\.sdkName)) == Set(documented))
        for name in documented { #expect(AccessRight(sdkName: name)?.sdkName == name) }
        #expect(AccessRight(sdkName: "address") == nil)
        #expect(AccessRight.readDG17.sdkName == "Address")
        #expect(AccessRight.communityIDVerification.sdkName == "AddressVerification")
    }

    @Test func effectiveCHATIsTheIntersection() {
        let terminal = CHAT(role: .terminal, rights: [.readDG4, .readDG5, .readDG8, .ageVerification, .canAllowed])
        let dv = CHAT(role: .dvNonOfficialForeign, rights: [.readDG4, .readDG5, .readDG8, .readDG9, .ageVerification])
        let effective = CHAT.effective(
            terminal: terminal, documentVerifier: dv, selected: [.readDG5, .readDG8, .readDG9, .canAllowed])
        #expect(effective.role == .terminal)
        #expect(effective.accessRights == [.readDG5, .readDG8])
        #expect(terminal.intersection(dv)?.accessRights == [.readDG4, .readDG5, .readDG8, .ageVerification])
        #expect(terminal.intersection(dv)?.role == .terminal)
        #expect(!terminal.isWithin(dv))
        #expect(effective.isWithin(dv) && effective.isWithin(terminal))
    }

    @Test func refusesMalformedCHATs() throws {
        // id-AT with 4 bytes, an unknown terminal type, trailing objects.
        #expect(throws: CVCertificateError.invalidCHAT) {
            try CHAT(encoded: try hex("7f4c11060904007f0007030102025304000513ff"))
        }
        #expect(throws: CVCertificateError.invalidCHAT) {
            try CHAT(encoded: try hex("7f4c12060904007f00070301020953050000000000"))
        }
        #expect(throws: CVCertificateError.unknownField(0x53, inside: 0x7F4C)) {
            try CHAT(encoded: try hex("7f4c15060904007f00070301020253050000000000530100"))
        }
        let inspection = try CHAT(encoded: try hex("7f4c0e060904007f0007030102015301c3"))
        #expect(inspection.terminalType == .inspectionSystem && inspection.role == .cvca)
        #expect(inspection.accessRights.isEmpty)
    }
}
