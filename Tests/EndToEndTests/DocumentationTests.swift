import Foundation
import Testing

/// The man page and the committed shell completions must match the argument parser.
@Suite(
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: E2E.binDir.appendingPathComponent("eid").path),
        "needs the built eid binary: run `make test`"))
struct DocumentationTests {
    @Test(arguments: [("bash", "eid.bash"), ("zsh", "_eid"), ("fish", "eid.fish")])
    func completionsAreGeneratedFromTheParser(shell: String, file: String) throws {
        let generated = try runTool("eid", ["--generate-completion-script", shell])
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
        for name in simNames { #expect(man.contains(name), "man/eid.1 does not mention eid-sim \(name)") }
    }
}
