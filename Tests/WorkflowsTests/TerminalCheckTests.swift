import EAC
import EIDCrypto
import Online
import TestPKI
import Testing

@testable import Workflows

/// The TR-03124 checks of EAC1 that need no network, one test each (docs/protocol.md,
/// "Checks of EAC1"), and the access rights of "Effective authorization".
@Suite struct TerminalCheckTests {
    static let tls: [UInt8] = Array("TLS certificate".utf8)
    static let url = "https://service.example/tctoken"
    let today = CalendarDate.todayUTC()
    let anchors = [TestCertificateAuthority.project.certificate]

    func description(subjectURL: String? = "https://service.example:443", comm: [[UInt8]]? = nil) throws
        -> CertificateDescription
    {
        try CertificateDescription(
            issuerName: "DV", subjectName: "Service", subjectURL: subjectURL, termsOfUsage: .plainText("terms"),
            commCertificates: comm ?? [try Digest.sha256.hash(Self.tls)])
    }

    func input(
        _ terminal: TestTerminal, description: CertificateDescription?, certificates: [CVCertificate]? = nil,
        required: CHAT? = nil, optional: CHAT? = nil
    ) throws -> EAC1InputType {
        EAC1InputType(
            certificates: try (certificates ?? [terminal.terminal.certificate, terminal.documentVerifier.certificate])
                .map { try $0.encoded },
            certificateDescription: description?.encoded, requiredCHAT: required?.encoded,
            optionalCHAT: optional?.encoded)
    }

    func check(_ input: EAC1InputType, url: String = TerminalCheckTests.url, tls: [[UInt8]] = [TerminalCheckTests.tls])
        throws(AuthCheckError) -> TerminalCheck
    {
        try TerminalCheck(input, tcTokenURL: url, trustAnchors: anchors, date: today, tlsCertificates: tls)
    }

    func expectFailure(_ expected: AuthCheckError, _ body: () throws -> TerminalCheck) {
        do {
            _ = try body()
            Issue.record("accepted; expected \(expected)")
        } catch {
            #expect(error as? AuthCheckError == expected)
        }
    }

    @Test func aGoodTerminalPasses() throws {
        let d = try description()
        let t = try TestCertificateAuthority.project.issueTerminal(description: d)
        let checked = try check(try input(t, description: d))
        #expect(
            checked.chain.certificates.map(\.body.holderReference) == [
                TestCertificateAuthority.projectHolderReference, "DEEIDTESTDV00001", "DEEIDTESTAT00001",
            ])
        #expect(checked.terminal == t.terminal.certificate)
    }

    /// The certificates of EAC1 in either order (DV, AT or AT, DV): the same chain.
    @Test("EID_CLIENT_B_31: the certificates may come in either order")
    func theCertificatesMayComeInEitherOrder() throws {
        let d = try description()
        let t = try TestCertificateAuthority.project.issueTerminal(description: d)
        let forward = [t.documentVerifier.certificate, t.terminal.certificate]
        for certificates in [forward, Array(forward.reversed())] {
            let checked = try check(try input(t, description: d, certificates: certificates))
            #expect(
                checked.chain.certificates.map(\.body.holderReference) == [
                    TestCertificateAuthority.projectHolderReference, "DEEIDTESTDV00001", "DEEIDTESTAT00001",
                ])
            #expect(checked.terminal == t.terminal.certificate)
        }
    }

    /// Auxiliary data of `length` bytes: an age verification and a community ID that fills the rest.
    static func auxiliaryData(length: Int) -> [UInt8] {
        let age = AuthenticatedAuxiliaryData.Element.ageVerification(CalendarDate(year: 2008, month: 1, day: 1)!)
        for prefix in 0..<length {
            let encoded = AuthenticatedAuxiliaryData([age, .communityID([UInt8](repeating: 0x02, count: prefix))])
                .encoded
            if encoded.count == length { return encoded }
        }
        return []
    }

    /// Authenticated auxiliary data come from the server unsigned until TA: at most
    /// `AuthenticatedAuxiliaryData.maximumLength` (256) bytes are taken, before any card access.
    @Test func auxiliaryDataAreBounded() throws {
        let d = try description()
        let t = try TestCertificateAuthority.project.issueTerminal(description: d)
        var fits = try input(t, description: d)
        fits.authenticatedAuxiliaryData = Self.auxiliaryData(length: AuthenticatedAuxiliaryData.maximumLength)
        #expect(fits.authenticatedAuxiliaryData?.count == 256)
        #expect(try check(fits).auxiliaryData?.communityID != nil)
        for length in [257, 70_000] {
            var over = fits
            over.authenticatedAuxiliaryData = Self.auxiliaryData(length: length)
            #expect(over.authenticatedAuxiliaryData?.count == length)
            expectFailure(.auxiliaryDataTooLong(count: length)) { try check(over) }
        }
        #expect(AuthCheckError.auxiliaryDataTooLong(count: 257).result == .error(.parameterError))
    }

    /// The TA signature must be a plain r ‖ s of the AT key's curve: 64 bytes on brainpoolP256r1.
    @Test func theSignatureLengthIsTwiceTheFieldSize() throws {
        let d = try description()
        let t = try TestCertificateAuthority.project.issueTerminal(description: d)
        let checked = try check(try input(t, description: d))
        let group = try checked.chain.targetKey().group
        #expect(checked.signatureLength == 2 * group.fieldSize)
        #expect(checked.signatureLength == 64)
    }

    @Test func exactlyOneDVAndOneTerminal() throws {
        let d = try description()
        let t = try TestCertificateAuthority.project.issueTerminal(description: d)
        let other = try TestCertificateAuthority.project.issueTerminal(
            description: d, holderReference: "DEEIDTESTAT00002")
        expectFailure(.noUniqueTerminal(count: 2)) {
            try check(
                try input(
                    t, description: d,
                    certificates: [t.terminal.certificate, other.terminal.certificate, t.documentVerifier.certificate]))
        }
        expectFailure(.noUniqueDocumentVerifier(count: 0)) {
            try check(try input(t, description: d, certificates: [t.terminal.certificate]))
        }
        expectFailure(.noUniqueDocumentVerifier(count: 2)) {
            try check(
                try input(
                    t, description: d,
                    certificates: [
                        t.terminal.certificate, t.documentVerifier.certificate, other.documentVerifier.certificate,
                    ]))
        }
    }

    @Test("EID_CLIENT_B_24: pre-verification refuses a DV certificate of a CVCA not trusted")
    func theChainMustLeadToATrustedCVCA() throws {
        let d = try description()
        let foreign = try TestCertificateAuthority.generate(
            holderReference: "DEFOREIGN00001", effectiveDate: today, expirationDate: try today.adding(days: 30))
        let t = try foreign.issueTerminal(description: d)
        expectFailure(.preVerificationFailed(.unknownAuthority(car: "DEFOREIGN00001", of: "DEEIDTESTDV00001"))) {
            try check(try input(t, description: d))
        }
    }

    @Test func anExpiredTerminalIsRefused() throws {
        let d = try description()
        let t = try TestCertificateAuthority.project.issueTerminal(
            description: d, effectiveDate: try today.adding(days: -40), validForDays: 30)
        expectFailure(.preVerificationFailed(.expired(chr: "DEEIDTESTAT00001", on: try today.adding(days: -10)))) {
            try check(try input(t, description: d))
        }
        let future = try TestCertificateAuthority.project.issueTerminal(
            description: d, effectiveDate: try today.adding(days: 5))
        do {
            _ = try check(try input(future, description: d))
            Issue.record("a certificate not yet valid was accepted")
        } catch {
            guard case .preVerificationFailed(.notYetValid)? = error as? AuthCheckError else {
                Issue.record("\(error)")
                return
            }
        }
    }

    @Test func aTerminalSignedByAnotherKeyIsRefused() throws {
        let d = try description()
        let t = try TestCertificateAuthority.project.issueTerminal(description: d)
        let other = try TestCertificateAuthority.project.issueTerminal(description: d)
        // Other's terminal under t's DV: same CAR, another signer.
        expectFailure(.preVerificationFailed(.invalidSignature(chr: "DEEIDTESTAT00001"))) {
            try check(
                try input(
                    t, description: d, certificates: [other.terminal.certificate, t.documentVerifier.certificate]))
        }
    }

    @Test("EID_CLIENT_A3_03, EID_CLIENT_B_12: the description must be there, with a subjectURL and its hash")
    func theDescriptionMustBeThereWithASubjectURLAndItsHash() throws {
        let d = try description()
        let t = try TestCertificateAuthority.project.issueTerminal(description: d)
        expectFailure(.noDescription) { try check(try input(t, description: nil)) }
        let noURL = try description(subjectURL: nil)
        let tNoURL = try TestCertificateAuthority.project.issueTerminal(description: noURL)
        expectFailure(.noSubjectURL) { try check(try input(tNoURL, description: noURL)) }
        let other = try description(subjectURL: "https://service.example/other")
        expectFailure(.descriptionHashMismatch) { try check(try input(t, description: other)) }
    }

    @Test("EID_CLIENT_A3_05: subjectURL and tcTokenURL must be the same origin (port, host)")
    func subjectURLAndTcTokenURLMustBeTheSameOrigin() throws {
        let d = try description()
        let t = try TestCertificateAuthority.project.issueTerminal(description: d)
        expectFailure(.sameOriginPolicyViolation) {
            try check(try input(t, description: d), url: "https://service.example:8443/tctoken")
        }
        expectFailure(.sameOriginPolicyViolation) {
            try check(try input(t, description: d), url: "https://evil.example/tctoken")
        }
    }

    @Test func everyTLSCertificateMustBeInCommCertificates() throws {
        let d = try description()
        let t = try TestCertificateAuthority.project.issueTerminal(description: d)
        _ = try check(try input(t, description: d), tls: [Self.tls, Self.tls])
        expectFailure(.certificateHashNotInDescription) {
            try check(try input(t, description: d), tls: [Self.tls, Array("a redirect hop's certificate".utf8)])
        }
        let none = try CertificateDescription(
            issuerName: "DV", subjectName: "Service", subjectURL: "https://service.example",
            termsOfUsage: .plainText("terms"))
        let tNone = try TestCertificateAuthority.project.issueTerminal(description: none)
        expectFailure(.certificateHashNotInDescription) { try check(try input(tNone, description: none)) }
    }

    @Test func theRequiredCHATMustBeWithinTheTerminals() throws {
        let d = try description()
        let t = try TestCertificateAuthority.project.issueTerminal(rights: [.readDG4, .readDG5], description: d)
        expectFailure(.requiredCHATExceedsTerminal) {
            try check(try input(t, description: d, required: CHAT(role: .terminal, rights: [.readDG4, .readDG17])))
        }
        // An optional right beyond the terminal's is dropped, not refused.
        let checked = try check(
            try input(
                t, description: d, required: CHAT(role: .terminal, rights: [.readDG4]),
                optional: CHAT(role: .terminal, rights: [.readDG5, .readDG17])))
        #expect(checked.accessRights.required == [.readDG4])
        #expect(checked.accessRights.optional == [.readDG5])
    }

    /// A terminal certificate that grants more than its DV is not fatal (as in AusweisApp; the
    /// card does not refuse it either), but the effective rights shown are only those the chain
    /// grants: DG9 stays required (the card ANDs it away) and is not in ACCESS_RIGHTS' effective.
    @Test func aTerminalBeyondItsDVPassesAndShowsOnlyTheChainsRights() throws {
        let d = try description()
        let authority = TestCertificateAuthority.project
        let dv = try authority.issueDocumentVerifier(rights: [.readDG4, .readDG5, .readDG8], effectiveDate: today)
        let at = try dv.issueTerminal(
            rights: [.readDG4, .readDG5, .readDG8, .readDG9], description: d, holderReference: "DEEIDTESTAT00001",
            effectiveDate: today, expirationDate: try today.adding(days: 30),
            domainParameters: authority.certificate.body.publicKey.domainParameters)
        let t = TestTerminal(cvca: authority.certificate, documentVerifier: dv, terminal: at)
        let checked = try check(
            try input(t, description: d, required: CHAT(role: .terminal, rights: [.readDG4, .readDG9])))
        #expect(checked.chain.effectiveCHAT.accessRights == [.readDG4, .readDG5, .readDG8])
        #expect(checked.accessRights.required == [.readDG4, .readDG9])
        #expect(checked.accessRights.granted == [.readDG4])
        let info = checked.accessRightsInfo(checked.accessRights, today: today)
        #expect(info.effective == ["GivenNames"])
        #expect(info.required == ["GivenNames", "PlaceOfBirth"])
    }

    /// docs/protocol.md, "Effective authorization": allowed = terminal ∩ displayable; required = RequiredCHAT
    /// ∩ allowed; optional = (OptionalCHAT ∩ allowed) − required, or all allowed without CHATs; CAN allowed
    /// optional only for an official domestic DV; effective = required ∪ (optional ∩ choice).
    @Test(
        """
        EID_CLIENT_C2_01, EID_CLIENT_D_18, EID_CLIENT_D_19, EID_CLIENT_D_21: the effective CHAT of §4.3 (rights \
        not shown are zero, the requested ones preselected; without CHATs, the terminal's, all optional)
        """
    )
    func effectiveCHATOfSection43() throws {
        let terminal = CHAT(
            role: .terminal,
            rights: [
                .readDG1, .readDG4, .readDG5, .readDG8, .readDG11, .ageVerification, .canAllowed, .privilegedTerminal,
            ])
        var rights = try AccessRightsRequest(
            terminal: terminal, documentVerifierRole: .dvOfficialDomestic,
            requiredCHAT: CHAT(role: .terminal, rights: [.readDG4]),
            optionalCHAT: CHAT(role: .terminal, rights: [.readDG4, .readDG5, .readDG11, .ageVerification]))
        #expect(rights.required == [.readDG4])
        #expect(
            rights.optional == [.readDG5, .ageVerification, .canAllowed], "DG11 (sex) is not shown; DG4 is required")
        #expect(
            rights.effectiveCHAT == CHAT(role: .terminal, rights: [.readDG4, .readDG5, .ageVerification, .canAllowed]))
        #expect(rights.select(.entries(["AgeVerification"])) == nil)
        #expect(rights.effective == [.readDG4, .ageVerification])
        #expect(
            rights.select(.entries(["GivenNames"])) == "Entry in 'chat' data is not available",
            "a required right is not optional")
        #expect(rights.effective == [.readDG4, .ageVerification], "a refused choice changes nothing")
        // AusweisApp's errors, in its order; each leaves the choice as it was.
        #expect(rights.select(.undefined) == "'chat' cannot be undefined")
        #expect(rights.select(.notAList) == "Invalid 'chat' data")
        #expect(rights.select(.entries(["FamilyName", nil])) == "Entry in 'chat' data needs to be string")
        #expect(rights.select(.entries(["NoSuchRight", "FamilyName"])) == "Entry in 'chat' data is invalid")
        #expect(rights.effective == [.readDG4, .ageVerification])
        #expect(rights.select(.entries([])) == nil, "an empty list deselects every optional right")
        #expect(rights.effective == [.readDG4])
        #expect(AccessRightsRequest.sdkNames(rights.optional) == ["FamilyName", "AgeVerification", "CanAllowed"])

        let none = try AccessRightsRequest(
            terminal: terminal, documentVerifierRole: .dvNonOfficialForeign, requiredCHAT: nil, optionalCHAT: nil)
        #expect(none.required.isEmpty)
        #expect(none.optional == [.readDG1, .readDG4, .readDG5, .readDG8, .ageVerification])
        #expect(none.effective == none.optional, "the terminal's rights come preselected")
    }
}
