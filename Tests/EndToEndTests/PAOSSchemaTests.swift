import ECardAPISchema
import Foundation
import Testing

/// What eid really sends, read by another reader than eid's own: `eid auth --json --test-pki`
/// with eid-sim in the test pcscd against `eid-testserver serve --record-paos DIR`, through the
/// runs that make eid send each kind of PAOS message (success, InitializeFramework, the EAC2
/// challenge, a refused Transmit APDU, a refused EAC1, TA refused by the card); every body the
/// server received validates against the eCard-API schemas (Tests/ECardAPISchema), and every kind
/// was seen.
extension ThroughPCSCD {
    @Suite(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: E2E.binDir.appendingPathComponent("eid-testserver").path),
            "needs the built eid-testserver binary: run `make test`"))
    struct PAOSSchemaTests {
        /// A run: the fault query and eid's exit status (0 success, 6 an error AUTH).
        static let runs: [(query: String, status: Int32)] = [
            ("", 0), ("?fault=initframework", 0), ("?fault=eac_additional", 0), ("?fault=transmit_change_pin", 6),
            ("?fault=expired_at", 6), ("?fault=wrong_ta_signature", 6),
        ]

        /// The kinds of message the runs above make eid send, and how each is recognised in a body.
        static let kinds: [(name: String, pattern: String)] = [
            ("StartPAOS", #"<(\w+:)?StartPAOS[\s>]"#),
            ("InitializeFrameworkResponse", #"<(\w+:)?InitializeFrameworkResponse[\s>]"#),
            ("EAC1OutputType", #"EAC1OutputType""#),
            ("EAC2OutputType", #"EAC2OutputType"[^>]*>\s*<(\w+:)?EFCardSecurity>"#),
            ("EAC2OutputType with the challenge only", #"EAC2OutputType"[^>]*>\s*<(\w+:)?Challenge>"#),
            ("DIDAuthenticateResponse reporting an error", #"EmptyResponseDataType""#),
            ("TransmitResponse", #"<(\w+:)?TransmitResponse[\s\S]*resultmajor#ok"#),
            ("TransmitResponse reporting an error", #"<(\w+:)?TransmitResponse[\s\S]*resultmajor#error"#),
        ]

        @Test func everyPAOSMessageEidSentValidatesAgainstTheECardAPISchemas() throws {
            let schema = try ECardAPISchema.shared.get()
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("eid-paos-\(getpid())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let server = try TestServerProcess(["--record-paos", directory.path])
            defer { server.stop() }
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(reader: reader, port: port)
                defer { card.stop() }
                for run in Self.runs {
                    let result = try runTool(
                        "eid",
                        [
                            "auth", "--json", "--test-pki", "--reader", reader, "--timeout", "30",
                            server.origin + "/tctoken" + run.query,
                        ],
                        stdin: [AuthFaultsTests.accept, AuthFaultsTests.pin].map { $0 + "\n" }.joined(), timeout: 60)
                    #expect(
                        result.status == run.status,
                        "\(run.query): exit \(result.status); \(result.stdoutLines.last ?? "")")
                }
            }
            let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
                .filter { $0.pathExtension == "xml" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
            var seen: Set<String> = []
            for file in files {
                let body = [UInt8](try Data(contentsOf: file))
                let problems = schema.problems(inEnvelope: body)
                #expect(problems.isEmpty, "\(file.lastPathComponent): \(problems)")
                let text = String(decoding: body, as: UTF8.self)
                for kind in Self.kinds where text.range(of: kind.pattern, options: .regularExpression) != nil {
                    seen.insert(kind.name)
                }
            }
            #expect(files.count >= 20, "\(files.count) bodies recorded")
            let missing = Self.kinds.map(\.name).filter { !seen.contains($0) }
            #expect(missing.isEmpty, "not sent by eid in these runs: \(missing)")
        }
    }
}
