import EAC
import EIDCrypto
import Foundation
import OpenPACEPeer
import TestPKI
import Testing

/// OpenPACE's `cvc-print` (Debian `openpace`), an independent CV certificate implementation,
/// reads every certificate the library issues and verifies the chain: with `--cvc-dir` it looks
/// up each CAR as a file of that name and runs its Terminal Authentication import
/// (CVC_verify_signature, validity dates against today) up to the self-signed CVCA.
@Suite("Peer: OpenPACE cvc-print reads and verifies certificates eid issues")
struct CVCPrintPeerTests {
    static let tool = "/usr/bin/cvc-print"

    /// A CVCA → DV → terminal chain issued today on `curve` with `algorithm`.
    struct IssuedChain {
        let cvca: CVCertificate
        let dv: CVCertificate
        let terminal: CVCertificate
        let description: CertificateDescription
    }

    static func issue(curve: ECCurve, algorithm: TAAlgorithm) throws -> IssuedChain {
        let group = try ECGroup(curve)
        let cvcaKey = try ECKeyPair.generate(group: group)
        let dvKey = try ECKeyPair.generate(group: group)
        let terminalKey = try ECKeyPair.generate(group: group)
        let today = CalendarDate.today()
        let later = CalendarDate(year: today.year + 1, month: today.month, day: min(today.day, 28))!
        let cvca = try CVCertificateBody(
            authorityReference: "DEEIDCVCA00001",
            publicKey: try CVPublicKey(algorithm: algorithm, point: cvcaKey.publicKey, includingDomainParameters: true),
            holderReference: "DEEIDCVCA00001", chat: CHAT(role: .cvca, rights: Set(AccessRight.allCases)),
            effectiveDate: today, expirationDate: later
        ).signed(by: cvcaKey.privateKey, algorithm: algorithm)
        let dv = try CVCertificateBody(
            authorityReference: "DEEIDCVCA00001",
            publicKey: try CVPublicKey(algorithm: algorithm, point: dvKey.publicKey, includingDomainParameters: false),
            holderReference: "DEEIDDV00001",
            chat: CHAT(
                role: .dvNonOfficialForeign, rights: [.readDG1, .readDG4, .readDG5, .readDG8, .ageVerification]),
            effectiveDate: today, expirationDate: later
        ).signed(by: cvcaKey.privateKey, algorithm: algorithm)
        let description = try CertificateDescription(
            issuerName: "eid test DV", issuerURL: "https://dv.eid.test", subjectName: "eid test service",
            subjectURL: "https://service.eid.test", termsOfUsage: .plainText("Test service of the eid project."),
            commCertificates: [try Digest.sha256.hash(Array("TLS certificate".utf8))])
        let terminal = try CVCertificateBody(
            authorityReference: "DEEIDDV00001",
            publicKey: try CVPublicKey(
                algorithm: algorithm, point: terminalKey.publicKey, includingDomainParameters: false),
            holderReference: "DEEIDAT00001",
            chat: CHAT(role: .terminal, rights: [.readDG4, .readDG5, .ageVerification]),
            effectiveDate: today, expirationDate: later,
            extensions: [.description(hash: try algorithm.digest.hash(description.encoded))]
        ).signed(by: dvKey.privateKey, algorithm: algorithm)
        return IssuedChain(cvca: cvca, dv: dv, terminal: terminal, description: description)
    }

    static let cases: [(ECCurve, TAAlgorithm)] = [
        (.brainpoolP256r1, .ecdsaSHA256), (.brainpoolP224r1, .ecdsaSHA224), (.brainpoolP384r1, .ecdsaSHA384),
        (.brainpoolP512r1, .ecdsaSHA512), (.secp256r1, .ecdsaSHA256), (.brainpoolP256r1, .ecdsaSHA1),
    ]

    @Test(arguments: cases)
    func readsAndVerifiesEveryIssuedCertificate(curve: ECCurve, algorithm: TAAlgorithm) throws {
        let chain = try CVCPrintPeerTests.issue(curve: curve, algorithm: algorithm)
        let dir = try TemporaryDirectory()
        let trusted = try dir.subdirectory("cvc")
        // cvc-print looks a CAR up as the file of that name in --cvc-dir.
        try dir.write(try chain.cvca.encoded, to: "cvc/DEEIDCVCA00001")
        try dir.write(try chain.dv.encoded, to: "cvc/DEEIDDV00001")
        for (name, certificate) in [("cvca", chain.cvca), ("dv", chain.dv), ("terminal", chain.terminal)] {
            let file = try dir.write(try certificate.encoded, to: "\(name).cvc")
            let run = try CVCPrintPeerTests.cvcPrint(["--cvc", file, "--cvc-dir", trusted])
            #expect(run.status == 0, "\(name): \(run.output)")
            #expect(run.output.contains("CHR: \(certificate.body.holderReference)"), "\(name): \(run.output)")
            #expect(run.output.contains("CAR: \(certificate.body.authorityReference)"), "\(name): \(run.output)")
            #expect(run.output.contains("\ncertificate verified"), "\(name): \(run.output)")
        }
        // The description: OpenPACE finds that it matches the terminal certificate's hash.
        let terminalFile = dir.path("terminal.cvc")
        let descriptionFile = try dir.write(chain.description.encoded, to: "description.der")
        let run = try CVCPrintPeerTests.cvcPrint([
            "--cvc", terminalFile, "--description", descriptionFile, "--cvc-dir", trusted,
        ])
        #expect(run.status == 0)
        #expect(run.output.contains("subjectURL\thttps://service.eid.test"), "\(run.output)")
        #expect(run.output.contains("certificate description matches certificate"), "\(run.output)")
    }

    @Test func refusesAForgedSignature() throws {
        let chain = try CVCPrintPeerTests.issue(curve: .brainpoolP256r1, algorithm: .ecdsaSHA256)
        var signature = chain.terminal.signature
        signature[10] ^= 0x01
        let forged = CVCertificate(body: chain.terminal.body, signature: signature)
        let dir = try TemporaryDirectory()
        let trusted = try dir.subdirectory("cvc")
        try dir.write(try chain.cvca.encoded, to: "cvc/DEEIDCVCA00001")
        try dir.write(try chain.dv.encoded, to: "cvc/DEEIDDV00001")
        let run = try CVCPrintPeerTests.cvcPrint([
            "--cvc", try dir.write(try forged.encoded, to: "forged.cvc"), "--cvc-dir", trusted,
        ])
        #expect(run.output.contains("CHR: DEEIDAT00001"))
        #expect(run.output.contains("certificate not verified"), "\(run.output)")
    }

    /// Runs cvc-print with a 20 s limit; stdout and stderr together.
    static func cvcPrint(_ arguments: [String]) throws -> (status: Int32, output: String) {
        guard FileManager.default.isExecutableFile(atPath: tool) else {
            throw PeerToolError.missing("\(tool) (Debian package openpace; `make deps` installs it)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning {
            if Date() > deadline {
                process.terminate()
                throw PeerToolError.timedOut(tool)
            }
            usleep(10_000)
        }
        // Foundation's Process is freed only once waitUntilExit() has seen the exit: polling
        // isRunning alone leaves it in a cycle (LeakSanitizer, `make sanitize`).
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}

enum PeerToolError: Error {
    case missing(String)
    case timedOut(String)
    case failed(String, String)
}

/// A directory under the system's temporary directory, removed when released.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("eid-cvc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func subdirectory(_ name: String) throws -> String {
        try FileManager.default.createDirectory(at: url.appendingPathComponent(name), withIntermediateDirectories: true)
        return path(name)
    }

    @discardableResult
    func write(_ bytes: [UInt8], to name: String) throws -> String {
        try Data(bytes).write(to: url.appendingPathComponent(name))
        return path(name)
    }
}

extension CalendarDate {
    /// Today's date in UTC.
    static func today() -> CalendarDate {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day], from: Date())
        return CalendarDate(year: parts.year!, month: parts.month!, day: parts.day!)!
    }
}

/// The project's test PKI (`TestPKI`): cvc-print reads and verifies the committed test CVCA and
/// every DV and terminal certificate it issues.
@Suite("Peer: OpenPACE cvc-print reads the project's test PKI")
struct TestPKICVCPrintPeerTests {
    /// The committed CVCA, and a new one as `make test-pki` would make it.
    static func authorities() throws -> [TestCertificateAuthority] {
        [TestCertificateAuthority.project, try TestCertificateAuthority.generateProjectCVCA()]
    }

    @Test(arguments: try authorities())
    func readsAndVerifiesTheCVCAAndFreshlyIssuedCertificates(authority: TestCertificateAuthority) throws {
        let description = try CertificateDescription(
            issuerName: "eid test DV", issuerURL: "https://dv.eid.test", subjectName: "eid test service",
            subjectURL: "https://service.eid.test", termsOfUsage: .plainText("TEST ONLY"))
        let terminal = try authority.issueTerminal(description: description)
        let dir = try TemporaryDirectory()
        let trusted = try dir.subdirectory("cvc")
        for certificate in [terminal.cvca] + terminal.chain {
            try dir.write(try certificate.encoded, to: "cvc/" + certificate.body.holderReference)
        }
        for certificate in [terminal.cvca] + terminal.chain {
            let file = try dir.write(try certificate.encoded, to: certificate.body.holderReference + ".cvc")
            let run = try CVCPrintPeerTests.cvcPrint(["--cvc", file, "--cvc-dir", trusted])
            #expect(run.status == 0, "\(run.output)")
            #expect(run.output.contains("CHR: \(certificate.body.holderReference)"), "\(run.output)")
            #expect(run.output.contains("\ncertificate verified"), "\(run.output)")
        }
        let run = try CVCPrintPeerTests.cvcPrint([
            "--cvc", dir.path(terminal.terminal.holderReference + ".cvc"),
            "--description", try dir.write(description.encoded, to: "description.der"), "--cvc-dir", trusted,
        ])
        #expect(run.output.contains("certificate description matches certificate"), "\(run.output)")
    }
}
