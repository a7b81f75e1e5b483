import Foundation
import Testing

/// The workflows and the faces are product code: they reach readers only through the card
/// layer's `CardReaderProvider`, so neither PC/SC nor the software card (a test tool) is linked
/// into them; the executables wire the providers (docs/architecture.md, "Layers"). Nor is the network:
/// the authentication reaches its eID server only through `PAOSTransport`, which `OnlineClient`
/// implements over TLS and the executable wires, so both are tested with a server in process.
@Suite struct LayeringTests {
    static let forbidden = [
        "PCSC", "CPCSC", "CardSimulator",
        // every transport: the client's HTTP/TLS and the test server's front end
        "TLS", "CCurl", "OnlineClient", "TestServerHTTPS", "CTestServerTLS", "NIOCore", "NIOPosix", "NIOHTTP1",
    ]

    /// Every module the Swift files under `Sources/target` import, with file and line.
    static func imports(of target: String) throws -> [(file: String, module: String, line: Substring)] {
        let folder = E2E.packageRoot.appendingPathComponent("Sources/\(target)")
        let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty)
        var found: [(file: String, module: String, line: Substring)] = []
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") where line.hasPrefix("import ") || line.contains(" import ") {
                found.append((file, line.split(separator: " ").last.map(String.init) ?? "", line))
            }
        }
        return found
    }

    /// The dependency list of `target` in Package.swift, as written.
    static func dependencies(of target: String) throws -> Substring {
        let manifest = try String(contentsOf: E2E.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let start = try #require(manifest.range(of: #"name: "\#(target)","#))
        let rest = manifest[start.upperBound...]
        let open = try #require(rest.range(of: "dependencies: ["))
        let close = try #require(rest[open.upperBound...].firstIndex(of: "]"))
        return rest[open.upperBound..<close]
    }

    @Test(arguments: ["Workflows", "Faces"])
    func importsNeitherPCSCNorTheSimulator(target: String) throws {
        for (file, module, line) in try Self.imports(of: target) {
            #expect(!Self.forbidden.contains(module), "Sources/\(target)/\(file): \(line)")
        }
    }

    @Test(arguments: ["Workflows", "Faces"])
    func targetDependsOnNeither(target: String) throws {
        let dependencies = try Self.dependencies(of: target)
        #expect(dependencies.contains("\"SDK\""), "found the \(target) target's dependencies: \(dependencies)")
        for module in Self.forbidden { #expect(!dependencies.contains("\"\(module)\""), "\(dependencies)") }
    }

    /// `Online` (TcToken, PAOS) sits below the SDK and the workflows and knows no card reader
    /// (docs/architecture.md, "Layers"): neither its imports nor its target name them.
    static let onlineForbidden = ["PCSC", "CPCSC", "CardSimulator", "Workflows", "SDK"]

    @Test func onlineImportsNoReaderNoSimulatorNoWorkflow() throws {
        for (file, module, line) in try Self.imports(of: "Online") {
            #expect(!Self.onlineForbidden.contains(module), "Sources/Online/\(file): \(line)")
        }
        let dependencies = try Self.dependencies(of: "Online")
        #expect(dependencies.contains("\"CLibXML2\""), "found: \(dependencies)")
        for module in Self.onlineForbidden { #expect(!dependencies.contains("\"\(module)\""), "\(dependencies)") }
    }

    /// `OnlineClient` (the TcToken fetch, `HTTPPAOSTransport`) is the network under the workflows, not
    /// above them: `PAOSTransport`, its error and `RefreshAddressClient` live in `Online`, so it needs
    /// no workflow, face, SDK message or card reader.
    static let onlineClientForbidden = ["Workflows", "Faces", "SDK", "PCSC", "CPCSC", "CardSimulator"]

    @Test func onlineClientImportsNoWorkflow() throws {
        for (file, module, line) in try Self.imports(of: "OnlineClient") {
            #expect(!Self.onlineClientForbidden.contains(module), "Sources/OnlineClient/\(file): \(line)")
        }
        let dependencies = try Self.dependencies(of: "OnlineClient")
        #expect(dependencies.contains("\"TLS\""), "found: \(dependencies)")
        #expect(dependencies.contains("\"Online\""), "found: \(dependencies)")
        for module in Self.onlineClientForbidden { #expect(!dependencies.contains("\"\(module)\""), "\(dependencies)") }
    }

    /// `EIDTestServer` (the eID server's sessions) needs no card and no workflow: the software
    /// card is only its tests' partner (docs/architecture.md, "Layers").
    static let serverForbidden = ["PCSC", "CPCSC", "CardSimulator", "Workflows", "SDK", "Faces"]

    @Test func eidTestServerImportsNoReaderNoSimulatorNoWorkflow() throws {
        for (file, module, line) in try Self.imports(of: "EIDTestServer") {
            #expect(!Self.serverForbidden.contains(module), "Sources/EIDTestServer/\(file): \(line)")
        }
        let dependencies = try Self.dependencies(of: "EIDTestServer")
        #expect(dependencies.contains("\"Online\""), "found: \(dependencies)")
        for module in Self.serverForbidden { #expect(!dependencies.contains("\"\(module)\""), "\(dependencies)") }
    }

    /// `LocalService` (eid serve's HTTP and WebSocket) is transport only: it knows no workflow,
    /// no face, no SDK message, no card reader; the sessions behind it (Faces) are its delegate.
    static let localServiceForbidden = ["Workflows", "Faces", "SDK", "Online", "PCSC", "CPCSC", "CardSimulator", "EAC"]

    @Test func localServiceIsTransportOnly() throws {
        for (file, module, line) in try Self.imports(of: "LocalService") {
            #expect(!Self.localServiceForbidden.contains(module), "Sources/LocalService/\(file): \(line)")
        }
        let dependencies = try Self.dependencies(of: "LocalService")
        for module in Self.localServiceForbidden { #expect(!dependencies.contains("\"\(module)\""), "\(dependencies)") }
    }

    /// Full Foundation brings FoundationInternationalization and ICU (about 30 MB of data linked into a
    /// static binary: eid-testserver's .deb once grew from 4.9 to 15.8 MB through one NSRegularExpression).
    /// Product code and the test tools use FoundationEssentials at most; only eid-bench (not shipped)
    /// imports Foundation.
    @Test func noTargetButTheBenchImportsFullFoundation() throws {
        let sources = E2E.packageRoot.appendingPathComponent("Sources")
        let targets = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { $0 != "eid-bench" }
        #expect(targets.contains("eid"))
        let swiftTargets = targets.filter { target in
            let files = FileManager.default.enumerator(atPath: sources.appendingPathComponent(target).path)
            return files?.contains { ($0 as? String)?.hasSuffix(".swift") == true } == true
        }
        #expect(swiftTargets.contains("CardSimulator") && !swiftTargets.contains("CCurl"))
        for target in swiftTargets {
            for (file, module, line) in try Self.imports(of: target) {
                #expect(module != "Foundation", "Sources/\(target)/\(file): \(line)")
            }
        }
    }

    /// `SimulatedPhone` (eid-sim --ifd) is the other side of eid's phone client, written from the protocol:
    /// it shares no code with eid's IFD client (`RemoteIFD`, `IFDTransport`) nor with eid's workflows, so that
    /// a misunderstanding in one cannot pass the other's tests unnoticed.
    static let phoneForbidden = ["RemoteIFD", "IFDTransport", "Workflows", "Faces", "SDK", "PCSC", "CPCSC", "TLS"]

    @Test func simulatedPhoneSharesNothingWithTheClient() throws {
        for (file, module, line) in try Self.imports(of: "SimulatedPhone") {
            #expect(!Self.phoneForbidden.contains(module), "Sources/SimulatedPhone/\(file): \(line)")
        }
        let dependencies = try Self.dependencies(of: "SimulatedPhone")
        #expect(dependencies.contains("\"CardSimulator\""), "found: \(dependencies)")
        for module in Self.phoneForbidden { #expect(!dependencies.contains("\"\(module)\""), "\(dependencies)") }
    }
}
