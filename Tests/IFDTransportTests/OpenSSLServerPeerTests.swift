import Foundation
import SmartCard
import Testing

@testable import IFDTransport

/// IFDWebSocket's TLS against `openssl s_server`, a TLS peer nobody here wrote: pairing with the one suite
/// PersoSim takes (RSA-PSK-AES256-CBC-SHA) and the code's ASCII bytes as the key, a client certificate
/// required (-Verify); paired with ECDHE-RSA. s_server speaks no WebSocket: it prints what it receives, so the
/// upgrade request shows that TLS carried it, and the open then times out waiting for the answer.
@Suite("IFDWebSocket against openssl s_server", .serialized)
struct OpenSSLServerPeerTests {
    let identity = IFDTestFixtures.identity

    @Test("pairing: RSA-PSK-AES256-CBC-SHA, PSK 31323334 (\"1234\"), eid's certificate shown")
    func pairing() throws {
        let server = try SServerPeer(["-psk", "31323334", "-cipher", "RSA-PSK-AES256-CBC-SHA"])
        defer { server.stop() }
        let result = transportError {
            _ = try IFDWebSocket.open(
                url: server.url, security: .pairing(code: Secret("1234")), identity: identity, timeout: 10)
        }
        #expect(result.error == .timedOut(.open, seconds: 10))
        let log = server.output
        #expect(log.contains("GET / HTTP/1.1"))
        #expect(log.contains("Host: 127.0.0.1:\(server.port)"))
        #expect(log.contains("Upgrade: websocket"))
        #expect(log.contains("RSA-PSK-AES256-CBC-SHA"))
        #expect(log.contains("CN = eid"))
        #expect(log.contains("got ''"))  // the PSK identity: empty, as AusweisApp sends it
    }

    @Test("pairing with a wrong code: s_server refuses, eid says so")
    func wrongCode() throws {
        let server = try SServerPeer(["-psk", "31323334", "-cipher", "RSA-PSK-AES256-CBC-SHA"])
        defer { server.stop() }
        let result = transportError {
            _ = try IFDWebSocket.open(
                url: server.url, security: .pairing(code: Secret("9999")), identity: identity, timeout: 30)
        }
        guard case .pairingRefused = result.error else {
            Issue.record("expected pairingRefused, got \(String(describing: result.error)); s_server: \(server.output)")
            return
        }
        #expect(!server.output.contains("GET /"))
    }

    @Test("paired: ECDHE-RSA-AES256-GCM-SHA384 with the pinned certificate; another certificate refused")
    func paired() throws {
        let server = try SServerPeer(["-cipher", "ECDHE-RSA-AES256-GCM-SHA384"])
        defer { server.stop() }
        let pinned = IFDTestFixtures.sha256(IFDTestFixtures.phone)
        let result = transportError {
            _ = try IFDWebSocket.open(
                url: server.url, security: .paired(pinnedCertificateSHA256: pinned), identity: identity, timeout: 10)
        }
        #expect(result.error == .timedOut(.open, seconds: 10))
        #expect(server.output.contains("GET / HTTP/1.1"))
        #expect(server.output.contains("ECDHE-RSA-AES256-GCM-SHA384"))
        let other = transportError {
            _ = try IFDWebSocket.open(
                url: server.url,
                security: .paired(pinnedCertificateSHA256: IFDTestFixtures.sha256(IFDTestFixtures.otherPhone)),
                identity: identity, timeout: 10)
        }
        #expect(other.error == .certificateChanged)
    }
}

/// `openssl s_server -tls1_2 -Verify 1` with the test phone's certificate on a port of this helper's range,
/// its output in a file.
final class SServerPeer {
    let process = Process()
    let port: Int
    let log: URL
    private let input = Pipe()

    init(_ options: [String]) throws {
        let directory = URL(fileURLWithPath: IFDTestFixtures.temporaryDirectory("s_server"))
        let phone = IFDTestFixtures.phone
        try phone.certificatePEM.write(
            to: directory.appendingPathComponent("phone.pem"), atomically: true, encoding: .utf8)
        try phone.keyPEM.write(to: directory.appendingPathComponent("phone.key"), atomically: true, encoding: .utf8)
        log = directory.appendingPathComponent("s_server.log")
        // A port of the range that is free now (s_server binds it a moment later).
        (_, port) = try IFDTestPorts.bind { port -> Int in
            let listener = try TCPListener(port: port)
            listener.stop()
            return port
        }
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments =
            [
                "s_server", "-accept", "127.0.0.1:\(port)", "-tls1_2", "-cert", "phone.pem", "-key", "phone.key",
                "-Verify", "1", "-state",
            ] + options
        process.currentDirectoryURL = directory
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = input
        try process.run()
        let deadline = Date(timeIntervalSinceNow: 10)
        while Date() < deadline, process.isRunning, !output.contains("ACCEPT") { usleep(50_000) }
        guard output.contains("ACCEPT") else {
            stop()
            throw IFDTestError.unexpected("s_server did not start: \(output)")
        }
    }

    var url: String { "wss://127.0.0.1:\(port)" }
    var output: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { stop() }
}
