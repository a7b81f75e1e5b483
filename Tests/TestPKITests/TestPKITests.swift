import EAC
import EIDCrypto
import Foundation
import Testing

@testable import TestPKI

@Suite struct TestPKITests {
    @Test func theCommittedCVCADecodesAndIsLongLived() throws {
        let cvca = TestCertificateAuthority.project
        let body = cvca.certificate.body
        #expect(body.holderReference == TestCertificateAuthority.projectHolderReference)
        #expect(body.isSelfSigned)
        #expect(cvca.certificate.role == .cvca)
        #expect(body.publicKey.algorithm == .ecdsaSHA256)
        #expect(try body.publicKey.group(inheriting: nil).curve == .brainpoolP256r1)
        #expect(try cvca.certificate.isSigned(by: try body.publicKey.point(inheriting: nil), algorithm: .ecdsaSHA256))
        // Long-lived: valid today and for at least another 20 years.
        let today = CalendarDate.todayUTC()
        #expect(cvca.certificate.isValid(on: today))
        #expect(cvca.certificate.isValid(on: try today.adding(days: 20 * 365)))
    }

    @Test func theCommittedSourceIsWhatTheGeneratorWritesForTheCommittedKey() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let committed = try String(
            contentsOf: root.appendingPathComponent("Sources/TestPKI/ProjectTestCVCA.swift"), encoding: .utf8)
        let source = try TestCertificateAuthority.project.projectSource()
        #expect(source == committed)
        #expect(source.hasPrefix("// TEST ONLY."))
    }

    @Test func aKeyThatIsNotTheCertificatesIsRefused() throws {
        let other = try ECKeyPair.generate(group: try ECGroup(.brainpoolP256r1))
        #expect(throws: TestPKIError.keyDoesNotMatchCertificate("DEEIDTESTCA00001")) {
            try TestCertificateAuthority(
                certificate: TestCertificateAuthority.project.certificate,
                privateScalar: try other.privateKey.rawScalar())
        }
    }

    @Test func issuedTerminalsHaveFreshDatesAndAVerifyingChain() throws {
        let today = CalendarDate.todayUTC()
        let description = try CertificateDescription(
            issuerName: "eid test DV", issuerURL: "https://dv.eid.test", subjectName: "eid test service",
            subjectURL: "https://service.eid.test", termsOfUsage: .plainText("TEST ONLY"))
        let terminal = try TestCertificateAuthority.project.issueTerminal(
            rights: [.readDG4, .readDG5, .ageVerification], description: description)
        let dv = terminal.documentVerifier.certificate.body
        let at = terminal.terminal.certificate.body
        let in90Days = try today.adding(days: 90)
        let in30Days = try today.adding(days: 30)
        #expect(dv.effectiveDate == today && dv.expirationDate == in90Days)
        #expect(at.effectiveDate == today && at.expirationDate == in30Days)
        #expect(dv.authorityReference == TestCertificateAuthority.projectHolderReference)
        #expect(at.authorityReference == dv.holderReference)
        #expect(dv.chat.role == .dvOfficialDomestic && at.chat.role == .terminal)
        #expect(at.chat.accessRights == [.readDG4, .readDG5, .ageVerification])
        #expect(at.publicKey.domainParameters == nil && dv.publicKey.domainParameters == nil)
        #expect(at.descriptionHash == (try Digest.sha256.hash(description.encoded)))
        let chain = try CVCertificateChain(verifying: [terminal.cvca] + terminal.chain, date: today)
        #expect(chain.target == terminal.terminal.certificate)
        // The terminal's key is the certificate's: it signs what the certificate's key verifies.
        let point = try at.publicKey.point(inheriting: chain.domainParameters)
        let signature = try ECDSA.sign([1, 2, 3], digest: .sha256, privateKey: terminal.terminal.keyPair.privateKey)
        #expect(try ECDSA.verify(signature, of: [1, 2, 3], digest: .sha256, publicKey: point))
    }

    @Test func defaultRightsReadEveryDataGroupAndVerify() {
        let rights = TestTerminal.defaultRights
        #expect(rights.contains(.readDG1) && rights.contains(.readDG21))
        #expect(!rights.contains(.readDG22) && !rights.contains(.writeDG17) && !rights.contains(.pinManagement))
        #expect(rights.contains(.ageVerification) && rights.contains(.communityIDVerification))
    }

    @Test func datesMoveByDaysAcrossMonthsAndYears() throws {
        let date = CalendarDate(year: 2026, month: 12, day: 20)!
        #expect(try date.adding(days: 30) == CalendarDate(year: 2027, month: 1, day: 19)!)
        #expect(try date.adding(days: -30) == CalendarDate(year: 2026, month: 11, day: 20)!)
        #expect(
            try CalendarDate(year: 2028, month: 2, day: 28)!.adding(days: 1) == CalendarDate(
                year: 2028, month: 2, day: 29)!)
        #expect(throws: TestPKIError.invalidValidity(days: 40000)) { try date.adding(days: 40000) }
        #expect(throws: TestPKIError.invalidValidity(days: -1)) {
            try TestCertificateAuthority.project.issueTerminal(validForDays: -1)
        }
    }

    @Test func aGeneratedCVCAIsAnotherTrustAnchor() throws {
        let today = CalendarDate.todayUTC()
        let other = try TestCertificateAuthority.generate(
            holderReference: "DEEIDOTHER00001", effectiveDate: today, expirationDate: try today.adding(days: 365))
        let terminal = try other.issueTerminal()
        _ = try CVCertificateChain(verifying: [other.certificate] + terminal.chain, date: today)
        #expect(throws: (any Error).self) {
            try CVCertificateChain(
                verifying: [TestCertificateAuthority.project.certificate] + terminal.chain, date: today)
        }
    }
}

/// The test CVCA series of TR-03124-2 module C3: the same keys in every process, each link verifying under the
/// generation before, each generation newer than the one before.
@Suite struct TestCVCAGenerationsTests {
    @Test func everyGenerationIsTheSameAgainAndLinksToTheNext() throws {
        for generation in 2...TestCVCAGenerations.maximum {
            let authority = try TestCVCAGenerations.authority(generation)
            #expect(authority.keyPair.publicKey == (try TestCVCAGenerations.authority(generation)).keyPair.publicKey)
            let link = try TestCVCAGenerations.link(to: generation)
            let before = try TestCVCAGenerations.authority(generation - 1)
            #expect(link.body.authorityReference == before.holderReference)
            #expect(link.body.holderReference == authority.holderReference)
            #expect(link.body.publicKey.publicPoint == authority.certificate.body.publicKey.publicPoint)
            #expect(link.body.effectiveDate > before.certificate.body.effectiveDate)
            let chain = try CVCertificateChain(verifying: [before.certificate, link], date: .todayUTC())
            #expect(chain.target == link)
        }
        #expect(TestCVCAGenerations.generation(of: "DEEIDTESTLK00003") == 3)
        #expect(TestCVCAGenerations.generation(of: TestCertificateAuthority.projectHolderReference) == nil)
    }

    @Test func noGenerationOutsideTheSeries() {
        #expect(throws: TestPKIError.invalidGeneration(0)) { try TestCVCAGenerations.authority(0) }
        #expect(throws: TestPKIError.invalidGeneration(1)) { try TestCVCAGenerations.link(to: 1) }
        #expect(throws: TestPKIError.invalidGeneration(10)) { try TestCVCAGenerations.link(to: 10) }
    }
}
