import Foundation
import TLS
import Testing

/// TLS-2 with a pre-shared key (RSA-PSK, TLS 1.2) against openssl s_server -psk.
@Suite struct PreSharedKeyTests {
    let pki: TestPKI
    static let identity = "4D2F1A7C-session-0001"
    static let key = "0F1E2D3C4B5A69788796A5B4C3D2E1F000112233445566778899AABBCCDDEEFF"

    init() throws { pki = try TestPKI.get() }

    func get(serverKey: String = key, serverIdentity: String = identity, suites: String? = nil, clientKey: String = key)
        throws -> Result<HTTPResponse, HTTPError>
    {
        var arguments = [
            "-cert", "rsa3072.pem", "-key", "rsa3072.key", "-tls1_2", "-psk", serverKey, "-psk_identity",
            serverIdentity, "-www",
        ]
        if let suites { arguments += ["-cipher", suites] }
        let server = try Peer.sServer(arguments, pki: pki)
        defer { server.stop() }
        let session = HTTPSession()
        let psk = try PreSharedKey(identity: Self.identity, hexKey: clientKey)
        do throws(HTTPError) {
            return .success(
                try session.send(HTTPRequest(url: "https://127.0.0.1:\(server.port)/"), over: .preSharedKey(psk)))
        } catch {
            return .failure(error)
        }
    }

    @Test func theRightKeyGetsAResponse() throws {
        let response = try get().get()
        #expect(response.status == 200)
        #expect(response.tls.protocolVersion == "TLSv1.2")
        #expect(response.tls.cipherSuite == "RSA-PSK-AES256-GCM-SHA384")
        #expect(response.tls.serverCertificate == (try pki.der("rsa3072")))
        #expect(response.tls.ephemeralKeyBits == nil)
    }

    /// The key as bytes (as the TcToken holds it after parsing), the way HTTPPAOSTransport makes it.
    @Test func theKeyGivenAsBytesWorksAlike() throws {
        let server = try Peer.sServer(
            [
                "-cert", "rsa3072.pem", "-key", "rsa3072.key", "-tls1_2", "-psk", Self.key, "-psk_identity",
                Self.identity, "-www",
            ], pki: pki)
        defer { server.stop() }
        let bytes = try #require([UInt8](hexString: Self.key))
        let psk = try PreSharedKey(identity: Self.identity, key: bytes)
        let response = try HTTPSession().send(
            HTTPRequest(url: "https://127.0.0.1:\(server.port)/"), over: .preSharedKey(psk))
        #expect(response.status == 200 && response.tls.cipherSuite.contains("PSK"))
        #expect(throws: TLSError.invalidPreSharedKey(.emptyKey)) { try PreSharedKey(identity: Self.identity, key: []) }
    }

    @Test(arguments: ["RSA-PSK-AES256-CBC-SHA", "RSA-PSK-AES128-CBC-SHA256", "RSA-PSK-AES128-GCM-SHA256"])
    func eachSuiteOfTR03124Works(suite: String) throws {
        #expect(try get(suites: suite).get().tls.cipherSuite == suite)
    }

    @Test func aWrongKeyIsRefused() throws {
        #expect(try get(clientKey: String(Self.key.reversed())).failure == .tls(.preSharedKeyRejected))
    }

    @Test func theIdentityIsTheSessionIdentifier() throws {
        // s_server only warns about an unexpected identity, and names the one it got.
        let server = try Peer.sServer(
            [
                "-cert", "rsa3072.pem", "-key", "rsa3072.key", "-tls1_2", "-psk", Self.key, "-psk_identity", "expected",
                "-www",
                "-naccept", "1",
            ],
            pki: pki)
        let psk = try PreSharedKey(identity: Self.identity, hexKey: Self.key)
        let response = try HTTPSession().send(
            HTTPRequest(url: "https://127.0.0.1:\(server.port)/"), over: .preSharedKey(psk))
        #expect(response.status == 200)
        #expect(server.waitAndReadOutput().contains("got '\(Self.identity)'"))
    }

    @Test func aServerWithoutRSAPSKIsRefused() throws {
        guard case .tls(.handshakeFailed) = try get(suites: "PSK-AES256-CBC-SHA").failure else {
            Issue.record("expected a failed handshake")
            return
        }
    }

    @Test func aWipedKeyIsNeverSent() throws {
        let server = try Peer.sServer(
            [
                "-cert", "rsa3072.pem", "-key", "rsa3072.key", "-tls1_2", "-psk", Self.key, "-psk_identity",
                Self.identity, "-www",
            ],
            pki: pki)
        defer { server.stop() }
        let psk = try PreSharedKey(identity: Self.identity, hexKey: Self.key)
        let session = HTTPSession()
        let request = HTTPRequest(url: "https://127.0.0.1:\(server.port)/")
        #expect(try session.send(request, over: .preSharedKey(psk)).status == 200)
        session.close()  // wipes the key
        #expect(throws: HTTPError.self) { try HTTPSession().send(request, over: .preSharedKey(psk)) }
    }

    @Test func malformedKeysAreRefusedWithoutQuotingThem() {
        #expect(throws: TLSError.invalidPreSharedKey(.keyNotHex)) { try PreSharedKey(identity: "s", hexKey: "0g") }
        #expect(throws: TLSError.invalidPreSharedKey(.keyNotHex)) { try PreSharedKey(identity: "s", hexKey: "abc") }
        #expect(throws: TLSError.invalidPreSharedKey(.emptyKey)) { try PreSharedKey(identity: "s", hexKey: "") }
        #expect(throws: TLSError.invalidPreSharedKey(.emptyIdentity)) { try PreSharedKey(identity: "", hexKey: "00") }
        let long = String(repeating: "a", count: 129)
        #expect(throws: TLSError.invalidPreSharedKey(.identityTooLong(maximumBytes: 128))) {
            try PreSharedKey(identity: long, hexKey: "00")
        }
        let error = TLSError.invalidPreSharedKey(.keyNotHex)
        #expect(!error.description.contains("0g"))
    }

    @Test func noDescriptionShowsTheKey() throws {
        let psk = try PreSharedKey(identity: Self.identity, hexKey: Self.key)
        #expect(!String(describing: psk).contains(Self.key.prefix(8)))
        #expect(!String(describing: psk).lowercased().contains(Self.key.prefix(8).lowercased()))
        let errors: [TLSError] = [.preSharedKeyRejected, .handshakeFailed(reason: "x")]
        for error in errors { #expect(!error.description.contains(Self.key.prefix(8))) }
    }
}

extension [UInt8] {
    /// Bytes from an even number of hex digits; nil otherwise.
    init?(hexString text: String) {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else {
                return nil
            }
            bytes.append(byte)
        }
        self = bytes
    }
}
