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
    @Test func pkiWritesPrivateKeysForItsOwnerOnly() throws {
        let base = NSTemporaryDirectory() + "eid-testserver-pki-modes-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: base) }
        func mode(_ path: String) throws -> Int {
            try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) & 0o777
        }
        let keys = ["tls-key.pem", "cvca.key", "dv.key", "at.key", "ds.key", "card-ca.key"]
        // A new directory (and its missing parent): the directory 0700, the keys 0600.
        let fresh = base + "/new/pki"
        #expect(try runTool("eid-testserver", ["pki", "--out", fresh]).status == 0)
        #expect(try mode(fresh) == 0o700)
        for key in keys { #expect(try mode(fresh + "/" + key) == 0o600, "\(key)") }
        #expect(try mode(fresh + "/cvca.cvcert") & 0o022 == 0)
        // An existing directory with an old key readable by all: the key is made private.
        let existing = base + "/existing"
        try FileManager.default.createDirectory(
            atPath: existing, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        FileManager.default.createFile(
            atPath: existing + "/at.key", contents: Data("old".utf8), attributes: [.posixPermissions: 0o644])
        #expect(try runTool("eid-testserver", ["pki", "--out", existing]).status == 0)
        #expect(try mode(existing) == 0o755)
        for key in keys { #expect(try mode(existing + "/" + key) == 0o600, "\(key)") }
    }

    @Test func pkiWritesWhatServeUses() throws {
        let dir = NSTemporaryDirectory() + "eid-testserver-pki-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let port = try E2E.freePort()
        let pki = try runTool("eid-testserver", ["pki", "--out", dir, "--origin", "https://localhost:\(port)"])
        #expect(pki.status == 0)
        for file in [
            "tls-cert.pem", "tls-key.pem", "cvca.cvcert", "cvca.key", "dv.cvcert", "dv.key", "at.cvcert", "at.key",
            "description.der", "csca.cer", "ds.cer", "ds.key", "card-ef-cardaccess.bin", "card-ef-cardsecurity.bin",
            "card-ca.key", "origin",
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

        // The CSCA signed the document signer; the document signer the card's EF.CardSecurity.
        #expect(try runOpenSSL(["x509", "-inform", "DER", "-in", dir + "/csca.cer", "-out", dir + "/csca.pem"]) == 0)
        let verified = try runOpenSSL([
            "cms", "-verify", "-inform", "DER", "-in", dir + "/card-ef-cardsecurity.bin", "-CAfile", dir + "/csca.pem",
            "-out", "/dev/null",
        ])
        #expect(verified == 0, "openssl cms -verify of card-ef-cardsecurity.bin under csca.cer")

        // serve --pki on the origin's port (no --port); curl trusts exactly the written certificate.
        let serve = Process()
        serve.executableURL = E2E.binDir.appendingPathComponent("eid-testserver")
        serve.arguments = ["serve", "--pki", dir, "--psk", "--attributes", "GivenNames,DateOfBirth?"]
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
        #expect(greeting.contains("listening on https://localhost:\(port) (port \(port))"), "\(greeting)")
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

    func runOpenSSL(_ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        process.standardError = Pipe()
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    @Test func servesRefusesABadPKIDirectoryClearly() throws {
        let result = try runTool("eid-testserver", ["serve", "--pki", "/nonexistent", "--port", "0"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("cannot read /nonexistent/tls-cert.pem"))

        let port = try E2E.freePort()
        let dir = try OwnPKIServer.makeDirectory(origin: "https://127.0.0.1:\(port)")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Another port than the origin's, which the certificate description names.
        let otherPort = try runTool("eid-testserver", ["serve", "--pki", dir, "--port", String(port == 1 ? 2 : 1)])
        #expect(otherPort.status != 0)
        #expect(otherPort.stderr.contains("is not the port of"), "\(otherPort.stderr)")
        // A missing AT key, then an AT key of another directory: named, with the remedy.
        let other = try OwnPKIServer.makeDirectory(origin: "https://127.0.0.1:\(port)")
        defer { try? FileManager.default.removeItem(atPath: other) }
        let ownKey = try Data(contentsOf: URL(fileURLWithPath: dir + "/at.key"))
        try FileManager.default.removeItem(atPath: dir + "/at.key")
        let missing = try runTool("eid-testserver", ["serve", "--pki", dir])
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("at.key is missing"), "\(missing.stderr)")
        try FileManager.default.copyItem(atPath: other + "/at.key", toPath: dir + "/at.key")
        let mismatch = try runTool("eid-testserver", ["serve", "--pki", dir])
        #expect(mismatch.status != 0)
        #expect(mismatch.stderr.contains("the key in at.key is not its certificate's"), "\(mismatch.stderr)")
        #expect(mismatch.stderr.contains("eid-testserver pki --out DIR"))
        // Another directory's TLS certificate: not in this description's CommCertificates.
        try ownKey.write(to: URL(fileURLWithPath: dir + "/at.key"))
        for file in ["tls-cert.pem", "tls-key.pem"] {
            try FileManager.default.removeItem(atPath: dir + "/" + file)
            try FileManager.default.copyItem(atPath: other + "/" + file, toPath: dir + "/" + file)
        }
        let foreignTLS = try runTool("eid-testserver", ["serve", "--pki", dir])
        #expect(foreignTLS.status != 0)
        #expect(foreignTLS.stderr.contains("lack the SHA-256 of tls-cert.pem"), "\(foreignTLS.stderr)")
    }

    /// `--attributes`: the client is asked for exactly the list (required and optional), and
    /// the server reads just that.
    @Test func attributesChooseWhatTheServerAsksForAndReads() throws {
        let server = AuthAgainstTestServerTests()
        try server.withServer(options: ["--attributes", "GivenNames,FamilyNames,DateOfBirth?"]) { port in
            let auth = try runTool(
                "eid", ["auth", "--json", "--simulator", "https://127.0.0.1:\(port)/tctoken"],
                stdin: AuthAgainstTestServerTests.answers, environment: AuthAgainstTestServerTests.noPCSCD,
                timeout: 60)
            #expect(auth.status == 0, "\(auth.stderr)\n\(auth.stdoutLines.joined(separator: "\n"))")
            let rights = try #require(
                auth.stdoutLines.map(jsonObject).first { $0["msg"] as? String == "ACCESS_RIGHTS" })
            let chat = try #require(rights["chat"] as? [String: Any])
            #expect(Set(chat["required"] as? [String] ?? []) == ["GivenNames", "FamilyName"])
            #expect((chat["optional"] as? [String] ?? []).contains("DateOfBirth"))
            #expect(!(chat["required"] as? [String] ?? []).contains("Address"))
            let read = try server.result(port: port)
            #expect(read.hasPrefix(#"{"ok":true"#), "\(read)")
            #expect(read.contains(#""GivenNames":"ERIKA""#) && read.contains(#""DateOfBirth""#))
            #expect(!read.contains(#""Address""#) && !read.contains(#""Nationality""#), "\(read)")
        }
    }

    @Test func aBadAttributeListIsRefused() throws {
        let result = try runTool("eid-testserver", ["serve", "--port", "0", "--attributes", "GivenNames,ShoeSize?"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("ShoeSize is not a data group the server can read"), "\(result.stderr)")
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
            "slow", "http_refresh", "redirect", "psk", "psk_protocol_no_parameters", "psk_wrong_key",
            "transmit_change_pin",
            "oversized_ta_signature", "oversized_aux_data", "transmit_batch", "transmit_stop",
            "transmit_status_prefix", "eac2_other_at", "eac2_expired_at", "end_after_eac1", "end_after_eac2",
            "end_after_eac2_challenge", "end_after_eac_additional", "empty_tctoken", "redirect_307", "redirect_404",
            "server_address_404", "refresh_404_no_error_address", "redirect_302", "redirect_http",
            "blank_tctoken", "empty_tctoken_http_error_address", "no_subject_url", "sop_violation_port",
            "refresh_redirect", "refresh_no_redirect", "refresh_redirect_http", "tls2_not_resumed",
            "refresh_tls_not_in_description",
        ] {
            #expect(man.contains(fault), "man/eid-testserver.1 does not describe the fault \(fault)")
        }
    }
}
