import Foundation
import Testing

/// The `eid-testserver` executable: `pki` writes a test PKI that `serve --pki` uses; its man page
/// and committed completions match its argument parser.
@Suite(
    .serialized,
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: E2E.binDir.appendingPathComponent("eid-testserver").path),
        "needs the built eid-testserver binary: run `make test`"))
struct TestServerToolTests {
    @Test func pkiWritesWhatServeUses() throws {
        let dir = NSTemporaryDirectory() + "eid-testserver-pki-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let pki = try runTool("eid-testserver", ["pki", "--out", dir, "--origin", "https://localhost:18443"])
        #expect(pki.status == 0)
        for file in [
            "tls-cert.pem", "tls-key.pem", "cvca.cvcert", "dv.cvcert", "dv.key", "at.cvcert", "at.key", "origin",
        ] {
            #expect(FileManager.default.fileExists(atPath: dir + "/" + file), "pki did not write \(file)")
        }
        // The TLS certificate: RSA 3072, for the origin's host.
        let text = Process()
        text.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        text.arguments = ["x509", "-in", dir + "/tls-cert.pem", "-noout", "-text"]
        let out = Pipe()
        text.standardOutput = out
        try text.run()
        let certificate = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        text.waitUntilExit()
        #expect(certificate.contains("Public-Key: (3072 bit)"))
        #expect(certificate.contains("DNS:localhost"))

        // serve --pki on a free port; curl trusts exactly the written certificate.
        let serve = Process()
        serve.executableURL = E2E.binDir.appendingPathComponent("eid-testserver")
        serve.arguments = ["serve", "--pki", dir, "--port", "0", "--psk"]
        let serveOut = Pipe()
        serve.standardOutput = serveOut
        serve.standardError = Pipe()
        try serve.run()
        defer {
            serve.terminate()
            let end = Date(timeIntervalSinceNow: 10)
            while serve.isRunning && Date() < end { usleep(20_000) }
            if serve.isRunning {
                kill(serve.processIdentifier, SIGKILL)
                Issue.record("eid-testserver serve did not end on SIGTERM")
            }
            serve.waitUntilExit()
        }
        var line = Data()
        let deadline = Date(timeIntervalSinceNow: 20)
        while !line.contains(UInt8(ascii: "\n")) && Date() < deadline {
            line += serveOut.fileHandleForReading.availableData
        }
        let greeting = String(decoding: line, as: UTF8.self)
        let port = try #require(greeting.split(separator: "(port ").last?.prefix { $0.isNumber })
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = [
            "-sS", "--max-time", "20", "--cacert", dir + "/tls-cert.pem", "https://localhost:\(port)/tctoken",
        ]
        let curlOut = Pipe()
        curl.standardOutput = curlOut
        try curl.run()
        let token = String(decoding: curlOut.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        curl.waitUntilExit()
        #expect(curl.terminationStatus == 0)
        #expect(token.contains("<PathSecurity-Protocol>urn:ietf:rfc:4279</PathSecurity-Protocol>"))
    }

    @Test func servesRefusesABadPKIDirectoryClearly() throws {
        let result = try runTool("eid-testserver", ["serve", "--pki", "/nonexistent", "--port", "0"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("cannot read /nonexistent/tls-cert.pem"))
    }

    @Test(arguments: [("bash", "eid-testserver.bash"), ("zsh", "_eid-testserver"), ("fish", "eid-testserver.fish")])
    func completionsAreGeneratedFromTheParser(shell: String, file: String) throws {
        let generated = try runTool("eid-testserver", ["--generate-completion-script", shell])
        #expect(generated.status == 0)
        let committed = try String(
            contentsOf: E2E.packageRoot.appendingPathComponent("completions/\(file)"), encoding: .utf8)
        #expect(generated.stdout == committed, "completions/\(file) is stale: run `make completions`")
    }

    @Test func manPageDocumentsEveryCommandOptionAndFault() throws {
        let man = try String(
            contentsOf: E2E.packageRoot.appendingPathComponent("man/eid-testserver.1"), encoding: .utf8
        ).replacingOccurrences(of: "\\-", with: "-").replacingOccurrences(of: "\\_", with: "_")
        let dump = try runTool("eid-testserver", ["--experimental-dump-help"])
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
        #expect(names.contains("serve") && names.contains("--psk"))
        for name in Set(names) where name != "help" {
            #expect(man.contains(name), "man/eid-testserver.1 does not mention \(name)")
        }
        for fault in [
            "wrong_ta_signature", "expired_at", "description_hash_mismatch", "tls_not_in_description",
            "sop_violation", "two_at", "chat_beyond_dv", "transmit_bad_mac", "final_error", "broken_xml",
            "wrong_order", "abort_mid_transmit", "initframework", "eac_additional", "aux_age", "transmit_single",
            "slow", "http_refresh", "redirect", "psk", "psk_wrong_key",
        ] {
            #expect(man.contains(fault), "man/eid-testserver.1 does not describe the fault \(fault)")
        }
    }
}
