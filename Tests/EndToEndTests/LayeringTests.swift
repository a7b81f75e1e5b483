import Foundation
import Testing

/// The workflows and the faces are product code: they reach readers only through the card
/// layer's `CardReaderProvider`, so neither PC/SC nor the software card (a test tool) is linked
/// into them; the executables wire the providers (ARCHITECTURE.md, "Layers"). Nor is the network:
/// the authentication reaches its eID server only through `PAOSTransport`, which `OnlineClient`
/// implements over TLS and the executable wires, so both are tested with a server in process.
@Suite struct LayeringTests {
    static let forbidden = ["PCSC", "CPCSC", "CardSimulator", "TLS", "CCurl", "OnlineClient"]

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

    /// `Online` (TcToken, PAOS) sits below the SDK and the workflows and knows no card reader
    /// (ARCHITECTURE.md): neither its imports nor its target name them.
    static let onlineForbidden = ["PCSC", "CPCSC", "CardSimulator", "Workflows", "SDK"]

    @Test func onlineImportsNoReaderNoSimulatorNoWorkflow() throws {
        let folder = E2E.packageRoot.appendingPathComponent("Sources/Online")
        let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty)
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") where line.hasPrefix("import ") || line.contains(" import ") {
                let module = line.split(separator: " ").last.map(String.init) ?? ""
                #expect(!Self.onlineForbidden.contains(module), "Sources/Online/\(file): \(line)")
            }
        }
        let manifest = try String(contentsOf: E2E.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let start = try #require(manifest.range(of: #"name: "Online", dependencies: ["#))
        let close = try #require(manifest[start.upperBound...].firstIndex(of: "]"))
        let dependencies = manifest[start.upperBound..<close]
        #expect(dependencies.contains("\"CLibXML2\""), "found: \(dependencies)")
        for module in Self.onlineForbidden { #expect(!dependencies.contains("\"\(module)\""), "\(dependencies)") }
    }

    /// `EIDTestServer` (the eID server's sessions) needs no card and no workflow: the software
    /// card is only its tests' partner (ARCHITECTURE.md).
    static let serverForbidden = ["PCSC", "CPCSC", "CardSimulator", "Workflows", "SDK", "Faces"]

    @Test func eidTestServerImportsNoReaderNoSimulatorNoWorkflow() throws {
        let folder = E2E.packageRoot.appendingPathComponent("Sources/EIDTestServer")
        let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty)
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") where line.hasPrefix("import ") || line.contains(" import ") {
                let module = line.split(separator: " ").last.map(String.init) ?? ""
                #expect(!Self.serverForbidden.contains(module), "Sources/EIDTestServer/\(file): \(line)")
            }
        }
        let manifest = try String(contentsOf: E2E.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let start = try #require(manifest.range(of: #"name: "EIDTestServer", dependencies: ["#))
        let close = try #require(manifest[start.upperBound...].firstIndex(of: "]"))
        let dependencies = manifest[start.upperBound..<close]
        #expect(dependencies.contains("\"Online\""), "found: \(dependencies)")
        for module in Self.serverForbidden { #expect(!dependencies.contains("\"\(module)\""), "\(dependencies)") }
    }
}
