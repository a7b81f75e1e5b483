import Foundation
import Testing

/// The built `eid-sim --ifd` as the client's tests drive it (no pcscd): the port and IFDID on standard
/// error, pairing with the code through `openssl s_client -psk`, a stable IFDID, SIGTERM, no secret printed.
@Suite(
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: E2E.binDir.appendingPathComponent("eid-sim").path),
        "needs the built eid-sim binary: run `make test`"))
struct PhoneSimulatorToolTests {
    @Test func pairsWithTheCodeKeepsItsIdentityAndEndsOnSIGTERM() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "eid-sim-ifd-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = { (name: String) in directory.appendingPathComponent(name).path }
        let certificate = try runProgram(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", path("client.key"), "-out",
                path("client.pem"), "-days", "2", "-subj", "/CN=client",
            ])
        #expect(certificate.status == 0)
        let options = [
            "--ifd-listen", "127.0.0.1:0", "--announce-to", "127.0.0.1:9", "--ifd-state-dir", path("state"),
            "--ifd-pinpad", "--ifd-pin", "918273",
        ]
        let phone = try PhoneSimProcess(options + ["--pairing-code", "4826"])
        #expect(phone.ifdID.count == 64)
        var lines: [String] = []
        let paired = try runProgram(
            "/usr/bin/openssl",
            [
                "s_client", "-connect", "127.0.0.1:\(phone.port)", "-tls1_2", "-psk", "34383236", "-cipher",
                "RSA-PSK-AES256-CBC-SHA", "-cert", path("client.pem"), "-key", path("client.key"),
            ], timeout: 20)
        #expect(paired.stdout.contains("Cipher is RSA-PSK-AES256-CBC-SHA"), "\(paired.stdout)")
        while let line = phone.line() {
            lines.append(line)
            if line.contains("paired with a client") { break }
        }
        #expect(lines.last?.contains("paired with a client; pairing ends") == true, "\(lines)")
        #expect(phone.stop() == 0)
        #expect(!lines.joined().contains("918273"))
        let pairedFiles = try FileManager.default.contentsOfDirectory(atPath: path("state") + "/paired")
        #expect(pairedFiles.count == 1 && pairedFiles[0].hasSuffix(".der"))

        let again = try PhoneSimProcess(options)
        #expect(again.ifdID == phone.ifdID)
        #expect(again.stop() == 0)
    }
}
