import Foundation
import Testing

/// The workflows and the faces are product code: they reach readers only through the card
/// layer's `CardReaderProvider`, so neither PC/SC nor the software card (a test tool) is linked
/// into them; the executables wire the providers (ARCHITECTURE.md, "Layers").
@Suite struct LayeringTests {
    static let forbidden = ["PCSC", "CPCSC", "CardSimulator"]

    @Test(arguments: ["Workflows", "Faces"])
    func importsNeitherPCSCNorTheSimulator(target: String) throws {
        let folder = E2E.packageRoot.appendingPathComponent("Sources/\(target)")
        let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty)
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") where line.hasPrefix("import ") || line.contains(" import ") {
                let module = line.split(separator: " ").last.map(String.init) ?? ""
                #expect(!Self.forbidden.contains(module), "Sources/\(target)/\(file): \(line)")
            }
        }
    }

    @Test(arguments: ["Workflows", "Faces"])
    func targetDependsOnNeither(target: String) throws {
        let manifest = try String(contentsOf: E2E.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let start = try #require(manifest.range(of: #"name: "\#(target)","#))
        let rest = manifest[start.upperBound...]
        let open = try #require(rest.range(of: "dependencies: ["))
        let close = try #require(rest[open.upperBound...].firstIndex(of: "]"))
        let dependencies = rest[open.upperBound..<close]
        #expect(dependencies.contains("\"SDK\""), "found the \(target) target's dependencies: \(dependencies)")
        for module in Self.forbidden { #expect(!dependencies.contains("\"\(module)\""), "\(dependencies)") }
    }
}
