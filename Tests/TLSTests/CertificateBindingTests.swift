import Foundation
import TLS
import Testing

/// After EAC1 every connection of the session must present a certificate the description lists
/// (`HTTPSession.bind`, AusweisApp's `CertificateChecker`): checked in the handshake of each new connection
/// (TLS-1, TLS-2 with RSA-PSK, a resumed session) and on a kept-alive one before its next request.
@Suite struct CertificateBindingTests {
    let pki: TestPKI

    init() throws { pki = try TestPKI.get() }

    /// A binding that accepts only the certificate `name` (DER equality stands for its hash in CommCertificates).
    func only(_ name: String) throws -> ServerCertificateBinding {
        let listed = try pki.der(name)
        return ServerCertificateBinding { $0 == listed }
    }

    @Test func aNewConnectionWithAnotherCertificateIsRefusedInItsHandshake() throws {
        let first = try Peer.sServer(["-cert", "ec256.pem", "-key", "ec256.key", "-www"], pki: pki)
        defer { first.stop() }
        let session = HTTPSession()
        _ = try session.fetch("https://127.0.0.1:\(first.port)/")
        session.bind(try only("ec256"))
        // Same host, same test CA, another certificate; s_server without -www prints what it receives.
        let other = try Peer.sServer(
            ["-cert", "rsa3072.pem", "-key", "rsa3072.key", "-naccept", "1"], pki: pki, echo: true)
        #expect(throws: HTTPError.tls(.certificateNotInDescription)) {
            try session.send(HTTPRequest(url: "https://127.0.0.1:\(other.port)/secret"), over: .web)
        }
        #expect(!other.waitAndReadOutput().contains("/secret"), "the request reached the server")
    }

    @Test func aNewConnectionWithTheListedCertificateIsUsed() throws {
        let server = try Peer.sServer(["-cert", "ec256.pem", "-key", "ec256.key", "-www"], pki: pki)
        defer { server.stop() }
        let session = HTTPSession()
        session.bind(try only("ec256"))
        let response = try session.send(HTTPRequest(url: "https://127.0.0.1:\(server.port)/"), over: .web)
        let listed = try pki.der("ec256")
        #expect(response.status == 200 && response.tls.serverCertificate == listed)
    }

    /// TLS-2 with RSA-PSK: the server's certificate is checked like any other, before the PSK is used.
    @Test func theRSAPSKChannelIsCheckedToo() throws {
        let identity = "binding-session-1"
        let key = "00112233445566778899AABBCCDDEEFF00112233445566778899AABBCCDDEEFF"
        let server = try Peer.sServer(
            [
                "-cert", "rsa3072.pem", "-key", "rsa3072.key", "-tls1_2", "-psk", key, "-psk_identity", identity,
                "-naccept", "1",
            ], pki: pki, echo: true)
        let session = HTTPSession()
        session.bind(try only("ec256"))
        let psk = try PreSharedKey(identity: identity, hexKey: key)
        #expect(throws: HTTPError.tls(.certificateNotInDescription)) {
            try session.send(HTTPRequest(url: "https://127.0.0.1:\(server.port)/secret"), over: .preSharedKey(psk))
        }
        #expect(!server.waitAndReadOutput().contains("/secret"), "the request reached the server")

        let listed = try Peer.sServer(
            ["-cert", "rsa3072.pem", "-key", "rsa3072.key", "-tls1_2", "-psk", key, "-psk_identity", identity, "-www"],
            pki: pki)
        defer { listed.stop() }
        let bound = HTTPSession()
        bound.bind(try only("rsa3072"))
        let response = try bound.send(
            HTTPRequest(url: "https://127.0.0.1:\(listed.port)/"),
            over: .preSharedKey(try PreSharedKey(identity: identity, hexKey: key)))
        #expect(response.status == 200 && response.tls.cipherSuite.contains("PSK"))
    }

    /// A resumed session presents no certificate in its handshake: its certificate (the first
    /// connection's) is checked before the request.
    @Test func aResumedSessionIsCheckedBeforeTheRequest() throws {
        let server = try Peer.sServer(["-cert", "ec256.pem", "-key", "ec256.key", "-www"], pki: pki)
        defer { server.stop() }
        let session = HTTPSession()
        let url = "https://127.0.0.1:\(server.port)/"
        _ = try session.fetch(url)
        session.bind(try only("rsa3072"))
        #expect(throws: HTTPError.tls(.certificateNotInDescription)) {
            try session.send(HTTPRequest(url: url), over: .resumingWeb)
        }
    }

    /// A connection kept alive from before the binding is checked before its next request.
    @Test func aKeptAliveConnectionIsCheckedBeforeItsNextRequest() throws {
        let server = try Peer.python("rsa3072", "ec256", pki: pki)
        defer { server.stop() }
        let session = HTTPSession()
        let url = "https://127.0.0.1:\(server.ports[0])/paos"
        let post = HTTPRequest(url: url, method: .post(body: Array("<StartPAOS/>".utf8)))
        let first = try session.send(post, over: .web)
        #expect(String(decoding: first.body, as: UTF8.self).contains("\"requestsOnConnection\": 1"))
        session.bind(try only("ec256"))
        #expect(throws: HTTPError.tls(.certificateNotInDescription)) { try session.send(post, over: .web) }
    }
}
