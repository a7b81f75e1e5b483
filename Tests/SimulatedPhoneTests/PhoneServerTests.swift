import CardSimulator
import Foundation
import OrderedJSON
import SmartCard
import TestServerHTTPS
import Testing

@testable import SimulatedPhone

/// The real phone server over TLS and WebSocket on loopback: announcements, pairing by code (openssl
/// s_client, as Python's ssl has no PSK below 3.13), then the messages through a Python client with the
/// paired certificate; a wrong code, an unpaired certificate and a second client refused.
@Suite(.serialized) struct PhoneServerTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("phone-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for name in ["client", "stranger"] {
            _ = try ClientProcess.openssl([
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", path("\(name).key"), "-out",
                path("\(name).pem"), "-days", "2", "-subj", "/CN=\(name)",
            ])
        }
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    func removeDirectory() { try? FileManager.default.removeItem(at: directory) }

    func startServer(announcePort: Int = 9, pairingCode: String?) throws -> PhoneServer {
        var configuration = PhoneConfiguration()
        configuration.name = "CI phone"
        configuration.announcePort = announcePort
        configuration.announceInterval = 0.2
        configuration.pairingCode = pairingCode
        let keypad = PhoneKeypad(pin: Secret("123456"), can: nil, puk: nil, newPIN: nil)
        let reader = PhoneCardReader(name: "CI phone", card: SimulatedEIDCard(), pinPad: false, keypad: keypad)
        let server = try PhoneServer(
            configuration: configuration, identity: try PhoneIdentity.loadOrCreate(directory: path("state")),
            paired: try PairedClients(directory: path("paired")), reader: reader, log: { _ in })
        try server.start()
        return server
    }

    func pair(port: Int, code: String) throws -> String {
        try ClientProcess.openssl([
            "s_client", "-connect", "127.0.0.1:\(port)", "-tls1_2", "-psk", Array(code.utf8).hexString,
            "-cipher", "RSA-PSK-AES256-GCM-SHA384", "-cert", path("client.pem"), "-key", path("client.key"),
        ])
    }

    func json(_ line: String?) -> JSONValue? { line.flatMap { try? JSONValue(parsing: Array($0.utf8)) } }

    @Test func announcementsCarryTheIdentityAndThePairingState() throws {
        defer { removeDirectory() }
        let listener = try ClientProcess.python(["announcement"])
        defer { listener.stop() }
        let portLine = try #require(listener.line())
        let udpPort = try #require(Int(portLine.dropFirst("PORT ".count)))
        let server = try startServer(announcePort: udpPort, pairingCode: "1234")
        defer { server.stop() }
        let announcement = try #require(json(listener.line()))
        #expect(announcement["msg"] == .string("REMOTE_IFD"))
        #expect(announcement["IFDName"] == .string("CI phone"))
        #expect(announcement["IFDID"] == .string(server.identity.ifdID))
        #expect(server.identity.ifdID.count == 64)
        #expect(announcement["SupportedAPI"] == .array([.string("IFDInterface_WebSocket_v2")]))
        #expect(announcement["pairing"] == .bool(true))
        guard case .integer(let port)? = announcement["port"] else { throw PeerFailure.missing("port") }
        #expect(announcement["addresses"] == .array([.string("wss://127.0.0.1:\(port)")]))
        // The identity is kept: a second start has the same IFDID.
        #expect(try PhoneIdentity.loadOrCreate(directory: path("state")).ifdID == server.identity.ifdID)
    }

    @Test func pairingThenASessionWithThePairedCertificate() throws {
        defer { removeDirectory() }
        let server = try startServer(pairingCode: "1234")
        defer { server.stop() }
        let port = try #require(server.port)
        _ = try pair(port: port, code: "9999")  // its Finished does not verify: the phone ends the handshake
        #expect(server.paired.count == 0)
        #expect(server.isPairing)  // a failed handshake does not end pairing (AusweisApp)
        let refusedBeforePairing = try ClientProcess.python([
            "refused", "\(port)", path("client.pem"), path("client.key"),
        ])
        #expect(json(refusedBeforePairing.lines().first)?["refused"] != .bool(false))  // no PSK: no pairing suite
        let paired = try pair(port: port, code: "1234")
        #expect(paired.contains("Cipher is RSA-PSK-AES256-GCM-SHA384"))
        let deadline = ContinuousClock.now + .seconds(30)
        while server.isPairing && ContinuousClock.now < deadline { usleep(20_000) }
        #expect(!server.isPairing)
        #expect(server.paired.count == 1)

        let lines = try ClientProcess.python(["session", "\(port)", path("client.pem"), path("client.key")]).lines()
        let messages = lines.compactMap(json)
        #expect(messages.count == 7, "\(lines)")
        #expect(messages.first?["msg"] == .string("IFDEstablishContextResponse"))
        #expect(messages.first?["ResultMajor"] == .string(IFDResult.majorOK))
        #expect(messages.dropFirst().first?["CardAvailable"] == .bool(true))
        #expect(messages.dropFirst(2).first?["msg"] == .string("IFDConnectResponse"))
        let transmit = messages.dropFirst(3).first
        #expect(transmit?["ResponseAPDU"]?.string?.hasSuffix("9000") == true)
        #expect(messages.dropFirst(4).first?["second"] == .integer(1008))
        #expect(messages.dropFirst(5).first?["msg"] == .string("IFDDisconnectResponse"))
        #expect(messages.last?["peer"] == .string(server.identity.ifdID))

        let stranger = try ClientProcess.python(["refused", "\(port)", path("stranger.pem"), path("stranger.key")])
        #expect(json(stranger.lines().first)?["refused"] != .bool(false))
    }

    @Test func aPhoneThatVanishesClosesWithoutAnAnswer() throws {
        defer { removeDirectory() }
        var configuration = PhoneConfiguration()
        configuration.pairingCode = "4711"
        configuration.faults = PhoneFaults(vanishAfterTransmits: 0)
        let keypad = PhoneKeypad(pin: nil, can: nil, puk: nil, newPIN: nil)
        let server = try PhoneServer(
            configuration: configuration, identity: try PhoneIdentity.loadOrCreate(directory: path("state")),
            paired: try PairedClients(directory: path("paired")),
            reader: PhoneCardReader(name: "eid-sim phone", card: SimulatedEIDCard(), pinPad: false, keypad: keypad),
            log: { _ in })
        try server.start()
        defer { server.stop() }
        let port = try #require(server.port)
        #expect(try pair(port: port, code: "4711").contains("Cipher is RSA-PSK"))
        let lines = try ClientProcess.python(["session", "\(port)", path("client.pem"), path("client.key")]).lines()
        let messages = lines.compactMap(json)
        // Three answers, then the connection drops at the transmit: no answer, no timeout of 10 s.
        #expect(messages.count == 3, "\(lines)")
        #expect(messages.last?["msg"] == .string("IFDConnectResponse"))
    }
}

enum PeerFailure: Error {
    case missing(String)
}
