import ArgumentParser
import EAC
import FoundationEssentials
import SmartCard
import TestPKI

/// `eid-test-pki`: the project's test PKI (TEST ONLY). Re-creates the committed test CVCA
/// (`make test-pki`) and document PKI, exports the CVCA, and issues fresh DV and terminal
/// certificates from it for terminals outside this package. Not installed.
@main
struct EIDTestPKI: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eid-test-pki",
        abstract: "The eid project's test PKI (TEST ONLY): its CVCA and fresh DV and terminal certificates.",
        subcommands: [GenerateCVCA.self, GenerateDocumentPKI.self, ExportCVCA.self, Issue.self])
}

/// Writes `bytes` to `path`, or says why it cannot.
func write(_ bytes: [UInt8], to path: String) throws {
    do {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    } catch {
        throw ValidationError("cannot write \(path)")
    }
}

struct GenerateCVCA: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate-cvca",
        abstract: "Generate a new test CVCA with a new key and write it as the committed Swift source.")

    @Option(help: ArgumentHelp("Where to write the Swift source.", valueName: "file"))
    var output = "Sources/TestPKI/ProjectTestCVCA.swift"

    @Flag(
        name: .customLong("keep-key"),
        help: "Write the committed CVCA again (same key and certificate), e.g. after the file's format changed.")
    var keepKey = false

    func run() throws {
        let cvca = keepKey ? TestCertificateAuthority.project : try TestCertificateAuthority.generateProjectCVCA()
        try write(Array(try cvca.projectSource().utf8), to: output)
        print("\(output): test CVCA \(cvca.holderReference), valid to \(cvca.certificate.body.expirationDate)")
    }
}

struct GenerateDocumentPKI: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate-document-pki",
        abstract:
            "Generate a new test CSCA, document signer and Chip Authentication key as the committed Swift source.",
        discussion: """
            Replaces the document PKI that eid-sim signs its EF.CardSecurity with and the test \
            eID server verifies it against (with private keys); commit the file. TEST ONLY.
            """)

    @Option(help: ArgumentHelp("Where to write the Swift source.", valueName: "file"))
    var output = "Sources/TestPKI/DocumentTestPKIMaterial.swift"

    func run() throws {
        try write(Array(try DocumentTestPKI.generateMaterialSource().utf8), to: output)
        print("\(output): a new test CSCA, document signer and Chip Authentication key")
    }
}

struct ExportCVCA: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cvca", abstract: "Write the committed test CVCA certificate (for eid-sim --cvca, cvc-print).")

    @Option(help: ArgumentHelp("The certificate file to write (DER, 7F21).", valueName: "file"))
    var output: String

    @Option(
        help: ArgumentHelp(
            "Instead, generation N (1 to \(TestCVCAGenerations.maximum)) of the test CVCA series "
                + "DEEIDTESTLK0000N, self-signed: a trust point for `eid-testserver serve --cvca-generation`.",
            valueName: "n"))
    var generation: Int?

    func validate() throws {
        guard (1...TestCVCAGenerations.maximum).contains(generation ?? 1) else {
            throw ValidationError("--generation must be 1 to \(TestCVCAGenerations.maximum)")
        }
    }

    func run() throws {
        let cvca = try generation.map(TestCVCAGenerations.authority) ?? TestCertificateAuthority.project
        try write(try cvca.certificate.encoded, to: output)
    }
}

struct Issue: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Issue a fresh DV and authentication terminal certificate under the committed test CVCA.",
        discussion: """
            Writes DIR/<CHR> for the CVCA, the DV and the terminal certificate (DER; the file \
            names are the holder references, as cvc-print --cvc-dir looks them up) and \
            DIR/terminal.key, the terminal's private key scalar in hex. TEST ONLY.
            """)

    @Option(name: .customLong("output-dir"), help: ArgumentHelp("An existing directory.", valueName: "dir"))
    var outputDirectory: String

    @Option(help: ArgumentHelp("Days the terminal certificate is valid from today (default 30).", valueName: "n"))
    var days = 30

    func run() throws {
        let terminal = try TestCertificateAuthority.project.issueTerminal(validForDays: days)
        for certificate in [terminal.cvca] + terminal.chain {
            try write(try certificate.encoded, to: outputDirectory + "/" + certificate.body.holderReference)
        }
        let key = try terminal.terminal.keyPair.privateKey.rawScalar().hexString + "\n"
        try write(Array(key.utf8), to: outputDirectory + "/terminal.key")
        print(terminal.chain.map(\.body.holderReference).joined(separator: " "))
    }
}
