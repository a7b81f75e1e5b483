import Foundation
import Testing

/// The man page and the committed shell completions must match the argument parser.
@Suite(
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: E2E.binDir.appendingPathComponent("eid").path),
        "needs the built eid binary: run `make test`"))
struct DocumentationTests {
    @Test(arguments: [
        ("eid", "bash", "eid.bash"), ("eid", "zsh", "_eid"), ("eid", "fish", "eid.fish"),
        ("eid-sim", "bash", "eid-sim.bash"), ("eid-sim", "zsh", "_eid-sim"), ("eid-sim", "fish", "eid-sim.fish"),
    ])
    func completionsAreGeneratedFromTheParser(tool: String, shell: String, file: String) throws {
        let generated = try runTool(tool, ["--generate-completion-script", shell])
        #expect(generated.status == 0)
        let committed = try String(
            contentsOf: E2E.packageRoot.appendingPathComponent("completions/\(file)"), encoding: .utf8)
        #expect(generated.stdout == committed, "completions/\(file) is stale: run `make completions`")
    }

    @Test func manPageDocumentsEveryCommandAndOption() throws {
        let man = try String(contentsOf: E2E.packageRoot.appendingPathComponent("man/eid.1"), encoding: .utf8)
            .replacingOccurrences(of: "\\-", with: "-")
        let dump = try runTool("eid", ["--experimental-dump-help"])
        let info = try jsonObject(dump.stdout)
        var names: [String] = []
        func collect(_ command: [String: Any]) {
            if let name = command["commandName"] as? String { names.append(name) }
            for argument in command["arguments"] as? [[String: Any]] ?? [] {
                for n in argument["names"] as? [[String: Any]] ?? [] where n["kind"] as? String == "long" {
                    names.append("--" + (n["name"] as? String ?? ""))
                }
            }
            for sub in command["subcommands"] as? [[String: Any]] ?? [] { collect(sub) }
        }
        collect(try #require(info["command"] as? [String: Any]))
        #expect(names.contains("change-pin"))
        for name in Set(names) where name != "help" {
            #expect(man.contains(name), "man/eid.1 does not mention \(name)")
        }
        let sim = try runTool("eid-sim", ["--experimental-dump-help"])
        let simInfo = try jsonObject(sim.stdout)
        var simNames: [String] = []
        for argument in (simInfo["command"] as? [String: Any])?["arguments"] as? [[String: Any]] ?? [] {
            for n in argument["names"] as? [[String: Any]] ?? [] where n["kind"] as? String == "long" {
                simNames.append("--" + (n["name"] as? String ?? ""))
            }
        }
        #expect(!simNames.isEmpty)
        let simMan = try String(contentsOf: E2E.packageRoot.appendingPathComponent("man/eid-sim.1"), encoding: .utf8)
            .replacingOccurrences(of: "\\-", with: "-")
        for name in simNames { #expect(simMan.contains(name), "man/eid-sim.1 does not mention \(name)") }
        #expect(man.contains("eid-sim (1)"), "man/eid.1 does not point to eid-sim(1)")
    }
}

/// README.md's "Testing your eService in CI" example, run as written through the test pcscd: the
/// shell block between the `ci-example` markers, with the built binaries first on PATH and only
/// the addresses of the user's machine replaced by the test environment's (vpcd port, reader
/// name, a free server port), so the example cannot rot.
extension ThroughPCSCD {
    @Suite(
        .enabled(
            if: FileManager.default.isExecutableFile(
                atPath: E2E.binDir.appendingPathComponent("eid-testserver").path),
            "needs the built eid-testserver binary: run `make test`"))
    struct ReadmeCIExampleTests {
        static func example() throws -> String {
            let readme = try String(contentsOf: E2E.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
            let start = try #require(readme.range(of: "<!-- ci-example"))
            let end = try #require(readme.range(of: "<!-- /ci-example -->"))
            let block = readme[start.upperBound..<end.lowerBound]
            let open = try #require(block.range(of: "```sh\n"))
            let close = try #require(block.range(of: "```", options: .backwards))
            return String(block[open.upperBound..<close.lowerBound])
        }

        @Test func theExampleAuthenticatesAndResultShowsTheSampleData() throws {
            let script = try Self.example()
            // The example as a user copies it: these are the only machine-specific strings.
            #expect(script.contains("127.0.0.1:35963") && script.contains("'Virtual PCD 00 00'"))
            #expect(script.contains("18443"))
            // Parallel CI jobs share a server: each asks for its own session's result.
            #expect(script.contains("/result?session="), "the example reads /result without its session")
            try E2E.pool.withReader { reader, port in
                let serverPort = try E2E.freePort()
                let adapted =
                    script
                    .replacingOccurrences(of: "127.0.0.1:35963", with: "127.0.0.1:\(port)")
                    .replacingOccurrences(of: "'Virtual PCD 00 00'", with: "'\(reader)'")
                    .replacingOccurrences(of: "18443", with: String(serverPort))
                let directory = FileManager.default.temporaryDirectory
                    .appendingPathComponent("eid-ci-example-" + UUID().uuidString)
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                defer { try? FileManager.default.removeItem(at: directory) }
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
                process.arguments = ["-k", "5", "90", "/bin/bash", "-c", adapted]
                process.currentDirectoryURL = directory
                var environment = ProcessInfo.processInfo.environment
                environment["PATH"] = E2E.binDir.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
                process.environment = environment
                let out = Pipe()
                let err = Pipe()
                process.standardOutput = out
                process.standardError = err
                process.standardInput = FileHandle.nullDevice
                try process.run()
                let stdout = PipeDrain(out)
                let stderr = PipeDrain(err)
                process.waitUntilExit()
                let output = stdout.text()
                #expect(process.terminationStatus == 0, "the README example failed: \(output) \(stderr.text())")
                #expect(output.contains(#""msg":"AUTH","result""#) && output.contains("resultmajor#ok"))
                #expect(output.contains(#"{"ok":true"#) && output.contains(#""GivenNames":"ERIKA""#))
                let saved = try String(contentsOf: directory.appendingPathComponent("result.json"), encoding: .utf8)
                #expect(saved.hasPrefix(#"{"ok":true"#))
            }
        }
    }
}
