import Foundation
import Testing

/// Issue 9's third acceptance line, with eid as the client: vsmartcard's nPA emulator (an
/// independent card) trusting `DIR/cvca.cvcert` of `eid-testserver pki --out DIR`, with DIR's
/// matching EF.CardSecurity and Chip Authentication key, is authenticated by `eid auth --json
/// --trust-cvca DIR/cvca.cvcert` against `eid-testserver serve --pki DIR`. The emulator checks
/// the terminal's certificates and signature in OpenPACE's libeac (TA) and derives the CA keys
/// there; the server checks EF.CardSecurity against DIR's CSCA.
extension ThroughPCSCD {
    @Suite(
        .enabled(
            if: FileManager.default.isExecutableFile(
                atPath: E2E.binDir.appendingPathComponent("eid-testserver").path),
            "needs the built eid-testserver binary: run `make test`"))
    struct EmulatedNPAAuthTests {
        static let answers =
            #"{"cmd":"ACCEPT"}"# + "\n" + #"{"cmd":"SET_PIN","value":"\#(EmulatedNPA.pin)"}"# + "\n"

        /// `eid auth --json --trust-cvca DIR/cvca.cvcert` (and `extra`) against `pki`'s server
        /// through `reader`, answering with `answers`.
        static func eidAuth(_ pki: OwnPKIServer, reader: String, _ extra: [String] = []) throws -> RunResult {
            try runTool(
                "eid",
                ["auth", "--json", "--trust-cvca", pki.dir + "/cvca.cvcert"] + extra
                    + ["--reader", reader, pki.origin + "/tctoken"],
                stdin: answers, timeout: 90)
        }

        @Test func eidAuthenticatesTheEmulatorTrustingTheServersOwnPKI() throws {
            let pki = try OwnPKIServer()
            defer { pki.stop() }
            try E2E.pool.withReader { reader, port in
                let card = try EmulatedNPA(
                    reader: reader, port: port,
                    options: EmulatedNPA.options(trustingPKI: pki.dir) + ["--datasetfile", pki.dataset])
                defer { card.stop() }
                let auth = try Self.eidAuth(pki, reader: reader)
                let result = try pki.result()
                #expect(auth.status == 0, "eid: \(auth.stderr)\nvicc: \(card.stop().1)\nresult: \(result)")
                #expect(auth.stdoutLines.last?.contains("resultmajor#ok") == true)
                #expect(result.hasPrefix(#"{"ok":true"#), "\(result)")
                // The emulator's own data (its dataset file), not eid-sim's sample card.
                #expect(result.contains(#""GivenNames":"GERTRUD""#), "\(result)")
                #expect(result.contains(#""passiveAuthentication":"verified""#), "\(result)")
                #expect(!auth.stdout.contains(EmulatedNPA.pin) && !auth.stderr.contains(EmulatedNPA.pin))
            }
        }

        /// The emulator in its default setup (issue 15): no CA key file, so it makes a fresh Chip
        /// Authentication key at PACE and writes it into its own EF.CardSecurity, whose signature
        /// then no longer verifies. eid parses the file as AusweisApp does, runs TA and CA and
        /// sends the file on: the server's passive authentication decides (it refuses the
        /// signature), and eid reports the server's result as AusweisApp2 does
        /// (vicc_default_setup_peer_test.py compares the two). Before, eid refused the card
        /// itself (authCardNotGenuine) and never sent EAC2's output.
        @Test func eidReachesEAC2WithTheEmulatorInItsDefaultSetup() throws {
            let pki = try OwnPKIServer()
            defer { pki.stop() }
            try E2E.pool.withReader { reader, port in
                let card = try EmulatedNPA(
                    reader: reader, port: port, options: EmulatedNPA.options(trustingCVCAOf: pki.dir))
                defer { card.stop() }
                let auth = try Self.eidAuth(pki, reader: reader)
                let result = try pki.result()
                let last = auth.stdoutLines.last ?? ""
                #expect(auth.status != 0)
                #expect(last.contains("resultmajor#error"), "\(auth.stdout)")
                // The server's sal#securityConditionNotSatisfied, reported as AusweisApp2 reports it
                // (its Paos_Generic_Server_Error: al/common#unknownAPIFunction), the server's minor
                // named in the message.
                #expect(last.contains("al/common#unknownAPIFunction"), "\(last)")
                #expect(last.contains("Paos_Generic_Server_Error"), "\(last)")
                #expect(
                    last.contains(
                        "with http://www.bsi.bund.de/ecard/api/1.1/resultminor/sal#securityConditionNotSatisfied"))
                #expect(!last.contains("Cannot_Confirm_IdCard_Authenticity"), "\(last)")
                #expect(result.hasPrefix(#"{"ok":false"#), "\(result)")
                #expect(result.contains(#""reason":"passive_authentication_failed""#), "\(result)")
                #expect(!auth.stdout.contains(EmulatedNPA.pin) && !auth.stderr.contains(EmulatedNPA.pin))
            }
        }

        /// `--csca DIR/csca.cer`: eid verifies EF.CardSecurity itself. The emulator's default
        /// setup then stops before Chip Authentication (Cannot_Confirm_IdCard_Authenticity); DIR's
        /// card, signed by DIR's document signer, still authenticates.
        @Test func withCSCAeidVerifiesEFCardSecurityItself() throws {
            let pki = try OwnPKIServer()
            defer { pki.stop() }
            try E2E.pool.withReader { reader, port in
                let card = try EmulatedNPA(
                    reader: reader, port: port, options: EmulatedNPA.options(trustingCVCAOf: pki.dir))
                defer { card.stop() }
                let auth = try Self.eidAuth(pki, reader: reader, ["--csca", pki.dir + "/csca.cer"])
                let last = auth.stdoutLines.last ?? ""
                #expect(auth.status != 0)
                #expect(last.contains("Cannot_Confirm_IdCard_Authenticity"), "\(last)")
                let result = try pki.result()
                #expect(result.hasPrefix(#"{"ok":false"#) && result.contains("client_reported_error"), "\(result)")
            }
            try E2E.pool.withReader { reader, port in
                let card = try EmulatedNPA(
                    reader: reader, port: port,
                    options: EmulatedNPA.options(trustingPKI: pki.dir) + ["--datasetfile", pki.dataset])
                defer { card.stop() }
                let auth = try Self.eidAuth(pki, reader: reader, ["--csca", pki.dir + "/csca.cer"])
                let result = try pki.result()
                #expect(auth.status == 0, "eid: \(auth.stderr)\nresult: \(result)")
                #expect(result.contains(#""passiveAuthentication":"verified""#), "\(result)")
            }
        }

        /// The same emulator trusting another CVCA (the project's test CVCA, the default of
        /// libeac's store is none of ours) refuses the server's certificates: the test above
        /// depends on DIR/cvca.cvcert. The card refuses Terminal Authentication at PSO:Verify
        /// Certificate (libeac cannot verify the chain; vicc answers 6900), eid ends with
        /// Workflow_No_Permission_Error (al/common#noPermission) and tells the server so.
        /// (AusweisApp2 knows no 6900 there and reports the card lost, ifdl#cancellationByUser:
        /// vicc_auth_peer_test.py.)
        @Test(
            "EID_CLIENT_B_29: the emulator trusting another CVCA refuses the server's chain that eid's pre-verification passed"
        )
        func theEmulatorTrustingAnotherCVCARefusesTheServer() throws {
            let pki = try OwnPKIServer()
            defer { pki.stop() }
            let other = try OwnPKIServer.makeDirectory(origin: pki.origin)
            defer { try? FileManager.default.removeItem(atPath: other) }
            try E2E.pool.withReader { reader, port in
                var options = EmulatedNPA.options(trustingPKI: pki.dir)
                options[1] = other + "/cvca.cvcert"
                let card = try EmulatedNPA(reader: reader, port: port, options: options)
                defer { card.stop() }
                let auth = try Self.eidAuth(pki, reader: reader)
                let cardErrors = card.stop().1
                let last = auth.stdoutLines.last ?? ""
                let noPermission = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/al/common#noPermission"
                #expect(auth.status != 0)
                // The card's refusal: libeac in the emulator did not verify the server's certificate.
                #expect(cardErrors.contains("Could not verify current signature"), "vicc: \(cardErrors)")
                #expect(last.contains("resultmajor#error"), "\(auth.stdout)")
                #expect(last.contains(#""minor":"\#(noPermission)""#), "\(last)")
                #expect(last.contains(#""reason":"Workflow_No_Permission_Error""#), "\(last)")
                #expect(last.contains("the card refused the service's terminal authentication"), "\(last)")
                let result = try pki.result()
                #expect(result.hasPrefix(#"{"ok":false"#), "\(result)")
                #expect(result.contains(#""reason":"client_reported_error""#), "\(result)")
                #expect(result.contains(#""resultMinor":"\#(noPermission)""#), "\(result)")
            }
        }
    }
}

/// `eid-testserver pki --out DIR --origin https://127.0.0.1:PORT` (a free port) and `serve
/// --pki DIR` for the life of this object; plus a vicc dataset file with its own given names.
final class OwnPKIServer {
    let dir: String
    let origin: String
    let dataset: String
    private let serve = Process()

    init() throws {
        origin = "https://127.0.0.1:\(try E2E.freePort())"
        dir = try Self.makeDirectory(origin: origin)
        dataset = dir + "/vicc-dataset.txt"
        try "GivenNames=GERTRUD\nDateOfExpiry=20351031\n".write(toFile: dataset, atomically: true, encoding: .utf8)
        serve.executableURL = E2E.binDir.appendingPathComponent("eid-testserver")
        serve.arguments = ["serve", "--pki", dir]
        let out = Pipe()
        serve.standardOutput = out
        let err = Pipe()
        serve.standardError = err
        try serve.run()
        var line = Data()
        let deadline = Date(timeIntervalSinceNow: 20)
        while !line.contains(UInt8(ascii: "\n")) && Date() < deadline && serve.isRunning {
            line += out.fileHandleForReading.availableData
        }
        guard String(decoding: line, as: UTF8.self).contains("listening on \(origin)") else {
            stop()
            throw E2EError.unexpected(
                "eid-testserver serve --pki did not start: "
                    + String(decoding: err.fileHandleForReading.availableData, as: UTF8.self))
        }
    }

    static func makeDirectory(origin: String) throws -> String {
        let dir = NSTemporaryDirectory() + "eid-testserver-pki-" + UUID().uuidString
        let made = try runTool("eid-testserver", ["pki", "--out", dir, "--origin", origin])
        guard made.status == 0 else { throw E2EError.unexpected("eid-testserver pki: \(made.stderr)") }
        return dir
    }

    /// `/result` of the server (curl trusting DIR's TLS certificate).
    func result() throws -> String {
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = ["-sS", "--max-time", "20", "--cacert", dir + "/tls-cert.pem", origin + "/result"]
        let out = Pipe()
        curl.standardOutput = out
        try curl.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        curl.waitUntilExit()
        return text
    }

    func stop() {
        if serve.isRunning {
            serve.terminate()
            let end = Date(timeIntervalSinceNow: 10)
            while serve.isRunning && Date() < end { usleep(20_000) }
            if serve.isRunning { kill(serve.processIdentifier, SIGKILL) }
            serve.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: dir)
    }
}
