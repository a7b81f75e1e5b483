import EIDCrypto
import Foundation
import SmartCard
import Testing

@testable import IFDTransport

/// IFDWebSocket against a phone's side made of eid-testserver's OpenSSL server handler and NIO's WebSocket
/// server, with a client certificate required, as AusweisApp's and PersoSim's remote IFD servers do.
@Suite("IFDWebSocket")
struct IFDWebSocketTests {
    let identity = IFDTestFixtures.identity

    @Test("pairing with the right code: RSA-PSK, an empty PSK identity, eid's certificate, the phone's returned")
    func pairing() throws {
        let server = try IFDTestServer(credentials: IFDTestFixtures.phone, code: "1234")
        defer { server.stop() }
        let socket = try IFDWebSocket.open(
            url: server.url, security: .pairing(code: Secret("1234")), identity: identity, timeout: 10)
        defer { socket.close() }
        #expect(socket.peerCertificateDER == IFDTestFixtures.phone.certificateDER)
        try socket.send(text: #"{"msg":"IFDEstablishContext"}"#, timeout: 30)
        #expect(try socket.receive(timeout: 30) == #"{"msg":"IFDEstablishContext"}"#)
        let seen = server.seen.withLock { $0 }
        #expect(seen.tls.count == 1)
        #expect(seen.tls.first?.pskIdentity == "")
        #expect(seen.tls.first?.cipher == "RSA-PSK-AES256-GCM-SHA384")
        #expect(clientCertificatesSeen.withLock { $0.contains(identity.certificateDER) })
        // The upgrade request as Qt's QWebSocket sends AusweisApp's.
        let request = try #require(seen.requests.first)
        #expect(request.uri == "/")
        #expect(request.headers["Host"] == ["127.0.0.1:\(server.port)"])
        #expect(request.headers["Sec-WebSocket-Version"] == ["13"])
        #expect(request.headers["Origin"].isEmpty)
    }

    @Test("a wrong pairing code is refused with a sentence that names the code and pairing mode, not the code")
    func wrongCode() throws {
        let server = try IFDTestServer(credentials: IFDTestFixtures.phone, code: "1234")
        defer { server.stop() }
        let result = transportError {
            _ = try IFDWebSocket.open(
                url: server.url, security: .pairing(code: Secret("4321")), identity: identity, timeout: 10)
        }
        guard case .pairingRefused = result.error else {
            Issue.record("expected pairingRefused, got \(String(describing: result.error))")
            return
        }
        let text = result.error!.description
        #expect(text.contains("pairing code was wrong") && text.contains("pairing mode"))
        #expect(!text.contains("4321") && !text.contains("1234"))
        #expect(server.seen.withLock { $0.requests.isEmpty })
    }

    @Test("a phone that is not in pairing mode (no PSK for the identity) refuses pairing")
    func notInPairingMode() throws {
        let server = try IFDTestServer(credentials: IFDTestFixtures.phone, code: nil)
        defer { server.stop() }
        let result = transportError {
            _ = try IFDWebSocket.open(
                url: server.url, security: .pairing(code: Secret("1234")), identity: identity, timeout: 10)
        }
        guard case .pairingRefused = result.error else {
            Issue.record("expected pairingRefused, got \(String(describing: result.error))")
            return
        }
    }

    @Test("a pairing code that is not 4 digits is refused before any connection", arguments: ["123", "12345", "12a4"])
    func malformedCode(code: String) {
        let result = transportError {
            _ = try IFDWebSocket.open(
                url: "wss://127.0.0.1:46199", security: .pairing(code: Secret(code)), identity: identity, timeout: 30)
        }
        #expect(result.error == .invalidPairingCode)
    }

    @Test("paired: ECDHE-RSA with the pinned certificate, messages both ways")
    func paired() throws {
        let server = try IFDTestServer(credentials: IFDTestFixtures.phone)
        defer { server.stop() }
        let socket = try IFDWebSocket.open(
            url: server.url, security: .paired(pinnedCertificateSHA256: IFDTestFixtures.sha256(IFDTestFixtures.phone)),
            identity: identity, timeout: 10)
        defer { socket.close() }
        #expect(server.seen.withLock { $0.tls.first?.cipher } == "ECDHE-RSA-AES256-GCM-SHA384")
        #expect(server.seen.withLock { $0.tls.first?.pskIdentity } == nil)
        for i in 0..<3 { try socket.send(text: "message \(i)", timeout: 30) }
        for i in 0..<3 { #expect(try socket.receive(timeout: 30) == "message \(i)") }
        let large = String(repeating: "0123456789ABCDEF", count: 8 * 1024)  // 128 KiB: an extended APDU in hex
        try socket.send(text: large, timeout: 30)
        #expect(try socket.receive(timeout: 30) == large)
    }

    @Test("paired: a phone whose certificate changed is refused before the WebSocket")
    func changedCertificate() throws {
        let server = try IFDTestServer(credentials: IFDTestFixtures.otherPhone)
        defer { server.stop() }
        let result = transportError {
            _ = try IFDWebSocket.open(
                url: server.url,
                security: .paired(pinnedCertificateSHA256: IFDTestFixtures.sha256(IFDTestFixtures.phone)),
                identity: identity, timeout: 10)
        }
        #expect(result.error == .certificateChanged)
        #expect(result.error?.description.contains("pair again") == true)
        #expect(server.seen.withLock { $0.requests.isEmpty })
    }

    @Test(
        "a phone that does not take eid's certificate: paired, the sentence says pair again", arguments: [false, true])
    func clientCertificateRefused(pairing: Bool) throws {
        let server = try IFDTestServer(credentials: IFDTestFixtures.phone, code: "1234", acceptsClient: false)
        defer { server.stop() }
        let security: IFDTLSSecurity =
            pairing
            ? .pairing(code: Secret("1234"))
            : .paired(pinnedCertificateSHA256: IFDTestFixtures.sha256(IFDTestFixtures.phone))
        let result = transportError {
            _ = try IFDWebSocket.open(url: server.url, security: security, identity: identity, timeout: 10)
        }
        if pairing {
            // A phone in pairing mode takes any certificate: a refusal then is no wrong code but a failure.
            guard case .handshakeFailed(alert: 42, _) = result.error else {
                Issue.record("expected handshakeFailed with alert 42, got \(String(describing: result.error))")
                return
            }
        } else {
            #expect(result.error == .clientCertificateRefused(alert: 42))
        }
    }

    @Test("the phone closing the WebSocket while eid waits ends the wait at once")
    func closedMidReceive() throws {
        let server = try IFDTestServer(credentials: IFDTestFixtures.phone, behaviour: .closeAfter(0.3))
        defer { server.stop() }
        let socket = try open(server)
        // The close, not the 60 s timeout, ends the wait.
        let result = transportError { _ = try socket.receive(timeout: 60) }
        #expect(result.error == .closed(code: 1001))
        #expect(result.seconds < 30)
        #expect(socket.isClosed)
        #expect(transportError { try socket.send(text: "late", timeout: 30) }.error == .closed(code: 1001))
    }

    @Test("a message that came before the phone closed is handed out first, then the end")
    func messageBeforeClose() throws {
        let server = try IFDTestServer(credentials: IFDTestFixtures.phone, behaviour: .sayThenClose("IFDStatus"))
        defer { server.stop() }
        let socket = try open(server)
        #expect(try socket.receive(timeout: 30) == "IFDStatus")
        #expect(transportError { _ = try socket.receive(timeout: 30) }.error == .closed(code: 1000))
    }

    @Test("the phone vanishing (TCP closed, no close frame) while eid waits ends the wait at once")
    func droppedMidReceive() throws {
        let server = try IFDTestServer(credentials: IFDTestFixtures.phone, behaviour: .dropAfter(0.3))
        defer { server.stop() }
        let socket = try open(server)
        // The dropped connection, not the 60 s timeout, ends the wait.
        let result = transportError { _ = try socket.receive(timeout: 60) }
        #expect(result.error == .closed(code: nil))
        #expect(result.seconds < 30)
    }

    @Test("a silent phone: receive times out within its timeout, the connection stays usable")
    func silentPhone() throws {
        let server = try IFDTestServer(credentials: IFDTestFixtures.phone, behaviour: .silent)
        defer { server.stop() }
        let socket = try open(server)
        defer { socket.close() }
        let result = transportError { _ = try socket.receive(timeout: 0.3) }
        #expect(result.error == .timedOut(.receive, seconds: 0.3))
        // Timing is the behaviour: the receive timeout ends the wait (and it ends).
        #expect(result.seconds >= 0.25 && result.seconds < 30)
        #expect(!socket.isClosed)
        try socket.send(text: "still there", timeout: 30)
    }

    @Test("a phone that answers no ping is given up after the keep-alive time")
    func unresponsivePhone() throws {
        let server = try IFDTestServer(credentials: IFDTestFixtures.phone, behaviour: .mute)
        defer { server.stop() }
        let socket = try IFDWebSocket.open(
            url: server.url, security: .paired(pinnedCertificateSHA256: IFDTestFixtures.sha256(IFDTestFixtures.phone)),
            identity: identity, timeout: 30, keepAlive: 0.2)
        // Timing is the behaviour: the keep-alive (0.2 s for the ping, 0.2 s for its answer), not the
        // receive's 60 s timeout, ends the wait.
        let result = transportError { _ = try socket.receive(timeout: 60) }
        #expect(result.error == .peerUnresponsive)
        #expect(result.seconds < 30)
    }

    @Test("a phone that answers pings is kept: no end after several keep-alive periods")
    func respondingPhone() throws {
        let server = try IFDTestServer(credentials: IFDTestFixtures.phone, behaviour: .silent)
        defer { server.stop() }
        let socket = try IFDWebSocket.open(
            url: server.url, security: .paired(pinnedCertificateSHA256: IFDTestFixtures.sha256(IFDTestFixtures.phone)),
            identity: identity, timeout: 30, keepAlive: 1)
        defer { socket.close() }
        // Timing is the behaviour: four keep-alive periods pass (the phone has 1 s to answer each
        // ping, room for a loaded machine) and the receive ends at its own timeout.
        #expect(transportError { _ = try socket.receive(timeout: 4) }.error == .timedOut(.receive, seconds: 4))
        #expect(!socket.isClosed)
    }

    @Test("a refused WebSocket upgrade is an error with the HTTP status")
    func upgradeRefused() throws {
        let server = try IFDTestServer(credentials: IFDTestFixtures.phone, upgrades: false)
        defer { server.stop() }
        #expect(transportError { _ = try open(server) }.error == .upgradeRefused(status: 403))
    }

    @Test("close ends the connection for the phone too, and again does nothing")
    func close() throws {
        let server = try IFDTestServer(credentials: IFDTestFixtures.phone)
        defer { server.stop() }
        let socket = try open(server)
        let start = Date()
        socket.close()
        // close waits for the phone's answer at most 1.5 s by itself: this only guards against a hang.
        #expect(Date().timeIntervalSince(start) < 30)
        socket.close()
        #expect(transportError { _ = try socket.receive(timeout: 30) }.error == .closed(code: 1000))
    }

    @Test("no phone at the address: connection refused, quickly")
    func noPhone() throws {
        let (_, port) = try IFDTestPorts.bind { port -> Int in port }  // a port of the range nobody serves
        let result = transportError {
            _ = try IFDWebSocket.open(
                url: "wss://127.0.0.1:\(port)", security: .paired(pinnedCertificateSHA256: []), identity: identity,
                timeout: 60)
        }
        guard case .connectionFailed(let host, let failedPort, _) = result.error else {
            Issue.record("expected connectionFailed, got \(String(describing: result.error))")
            return
        }
        #expect(host == "127.0.0.1" && failedPort == port)
        #expect(result.seconds < 30, "refused at once, not at the open's 60 s timeout")
    }

    @Test("a server that accepts but never answers the handshake: the open times out within its timeout")
    func silentTCP() throws {
        let (listener, _) = try IFDTestPorts.bind { try TCPListener(port: $0) }
        defer { listener.stop() }
        let result = transportError {
            _ = try IFDWebSocket.open(
                url: "wss://127.0.0.1:\(listener.port)", security: .pairing(code: Secret("1234")), identity: identity,
                timeout: 0.5)
        }
        #expect(result.error == .timedOut(.open, seconds: 0.5))
        // Timing is the behaviour: the open's timeout ends the wait for a handshake that never comes.
        #expect(result.seconds < 30)
    }

    @Test(
        "addresses: wss://HOST:PORT only",
        arguments: [
            "ws://127.0.0.1:24728", "wss://127.0.0.1", "wss://127.0.0.1:0", "wss://127.0.0.1:65536", "wss://:80",
            "wss://host name:1", "wss://127.0.0.1:80/path", "https://127.0.0.1:80",
        ])
    func invalidAddress(address: String) {
        let result = transportError {
            _ = try IFDWebSocket.open(
                url: address, security: .paired(pinnedCertificateSHA256: []), identity: identity, timeout: 30)
        }
        #expect(result.error == .invalidAddress(address))
    }

    @Test("addresses: IPv4, IPv6 in brackets, names; the Host header as QWebSocket writes it")
    func validAddress() throws {
        #expect(try IFDAddress("wss://192.168.1.20:24728").hostHeader == "192.168.1.20:24728")
        #expect(try IFDAddress("wss://[fe80::1]:24728/") == IFDAddress("wss://[fe80::1]:24728"))
        #expect(try IFDAddress("wss://[fe80::1]:24728").host == "fe80::1")
        #expect(try IFDAddress("wss://[fe80::1]:24728").hostHeader == "[fe80::1]:24728")
        #expect(try IFDAddress("WSS://phone.local:1").port == 1)
    }

    private func open(_ server: IFDTestServer) throws -> IFDWebSocket {
        try IFDWebSocket.open(
            url: server.url, security: .paired(pinnedCertificateSHA256: IFDTestFixtures.sha256(IFDTestFixtures.phone)),
            identity: identity, timeout: 10)
    }
}

/// A TCP listener that accepts and then says nothing (a phone that hangs in the handshake).
final class TCPListener: @unchecked Sendable {
    let port: Int
    private let descriptor: Int32

    /// Listening on `port`; throws when it is taken.
    init(port: Int) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Foundation.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 4) == 0 else {
            Foundation.close(fd)
            throw IFDTestError.noFreePort
        }
        descriptor = fd
        self.port = port
    }

    func stop() { Foundation.close(descriptor) }
}
