import Foundation
import TLS
import Testing

/// TLS-1 against openssl s_server: suites, groups, key minimums, certificate verdicts.
@Suite struct WebChannelTests {
    let pki: TestPKI

    init() throws { pki = try TestPKI.get() }

    func fetch(
        _ name: String, _ extra: [String] = [], configuration: HTTPConfiguration = HTTPConfiguration()
    ) throws -> Result<RedirectChain, HTTPError> {
        let server = try Peer.sServer(["-cert", "\(name).pem", "-key", "\(name).key", "-www"] + extra, pki: pki)
        defer { server.stop() }
        let session = HTTPSession(configuration: configuration)
        do throws(HTTPError) {
            return .success(try session.fetch("https://127.0.0.1:\(server.port)/"))
        } catch {
            return .failure(error)
        }
    }

    @Test(
        "EID_CLIENT_E_06: TLS-1 accepts the strong servers (TLS 1.2 and 1.3, RSA 3072, P-256, brainpool)",
        arguments: [
            ("rsa3072", [String](), 3072, "TLSv1.3"),
            ("rsa3072", ["-tls1_2"], 3072, "TLSv1.2"),
            ("ec256", [], 256, "TLSv1.3"),
            ("ec256", ["-tls1_2"], 256, "TLSv1.2"),
            ("brainpool256", ["-tls1_2"], 256, "TLSv1.2"),
        ])
    func acceptsStrongServers(name: String, extra: [String], bits: Int, version: String) throws {
        let chain = try fetch(name, extra).get()
        #expect(chain.hops.count == 1)
        #expect(chain.response.status == 200)
        #expect(chain.response.tls.protocolVersion == version)
        #expect(chain.response.tls.serverKeyBits == bits)
        #expect(chain.response.tls.serverCertificate == (try pki.der(name)))
        #expect(chain.response.tls.chainTrusted == false)  // the test CA is nobody's root
        #expect(String(decoding: chain.response.body, as: UTF8.self).contains("s_server"))
    }

    @Test func brainpoolServerGetsABrainpoolKeyExchange() throws {
        // s_server with only brainpoolP256r1: the client must offer it (TR-03116-4 table 5).
        let chain = try fetch("brainpool256", ["-tls1_2", "-groups", "brainpoolP256r1"]).get()
        #expect(chain.response.tls.cipherSuite.hasPrefix("ECDHE-ECDSA-"))
        #expect(chain.response.tls.ephemeralKeyBits == 256)
    }

    @Test func chainToAGivenAnchorIsTrusted() throws {
        let chain = try fetch("ec256", configuration: HTTPConfiguration(trustAnchorsFile: pki.path("ca.pem"))).get()
        #expect(chain.response.tls.chainTrusted)
    }

    @Test("EID_CLIENT_E_04: TLS-1 refuses an RSA key below 3000 bits")
    func refusesAnRSAKeyBelow3000Bits() throws {
        #expect(try fetch("rsa2048").failure == .tls(.serverKeyTooSmall(algorithm: "RSA", bits: 2048, minimum: 3000)))
    }

    @Test("EID_CLIENT_E_08: TLS-1 refuses an ephemeral DH key below 3000 bits")
    func refusesAnEphemeralDHKeyBelow3000Bits() throws {
        let result = try fetch(
            "rsa3072", ["-tls1_2", "-cipher", "DHE-RSA-AES256-GCM-SHA384", "-dhparam", "ffdhe2048.pem"])
        #expect(result.failure == .tls(.ephemeralKeyTooSmall(algorithm: "DH", bits: 2048, minimum: 3000)))
    }

    @Test func refusesAnExpiredCertificate() throws {
        #expect(try fetch("expired").failure == .tls(.certificateExpired))
    }

    @Test("EID_CLIENT_E_05_a: TLS-1 refuses a certificate for another host")
    func refusesACertificateForAnotherHost() throws {
        #expect(try fetch("wronghost").failure == .tls(.hostMismatch(host: "127.0.0.1")))
    }

    /// No subjectAltName, only a common name that is not the server's name (TR-03124-2 E_05_b).
    @Test("EID_CLIENT_E_05_b: TLS-1 refuses a certificate whose common name is not the server's")
    func refusesACertificateWhoseCommonNameIsAnotherHost() throws {
        #expect(try fetch("wrongcn").failure == .tls(.hostMismatch(host: "127.0.0.1")))
    }

    @Test func refusesABrokenSignatureEvenWhenTheChainIsUntrusted() throws {
        #expect(try fetch("badsig", ["-cert_chain", "ca.pem"]).failure == .tls(.certificateSignatureInvalid))
    }

    @Test("EID_CLIENT_E_03: TLS-1 refuses a server whose only suite has no forward secrecy")
    func refusesAServerWithoutForwardSecrecy() throws {
        let result = try fetch("rsa3072", ["-tls1_2", "-cipher", "AES256-GCM-SHA384"])
        guard case .tls(.handshakeFailed) = result.failure else {
            Issue.record("expected a failed handshake, got \(result)")
            return
        }
    }

    @Test("EID_CLIENT_E_01: TLS-1 refuses a server of TLS 1.1")
    func refusesTLS11() throws {
        let result = try fetch("rsa3072", ["-tls1_1", "-cipher", "ALL:@SECLEVEL=0"])
        guard case .tls(.handshakeFailed) = result.failure else {
            Issue.record("expected a failed handshake, got \(result)")
            return
        }
    }

    @Test func refusesPlainHTTPAndBadAddresses() {
        let session = HTTPSession()
        #expect(throws: HTTPError.notHTTPS(url: "http://127.0.0.1/")) { try session.fetch("http://127.0.0.1/") }
        #expect(throws: HTTPError.invalidURL("not a url")) { try session.fetch("not a url") }
    }

    @Test func nothingListeningIsAConnectionFailure() throws {
        let listener = try SilentListener()
        let port = listener.port
        listener.close()
        let session = HTTPSession()
        #expect(throws: HTTPError.connectionFailed(host: "127.0.0.1")) {
            try session.fetch("https://127.0.0.1:\(port)/")
        }
    }

    @Test func aServerThatNeverAnswersTimesOut() throws {
        let listener = try SilentListener()
        defer { listener.close() }
        let session = HTTPSession(configuration: HTTPConfiguration(connectTimeout: .milliseconds(500)))
        let start = ContinuousClock.now
        #expect(throws: HTTPError.connectTimedOut(seconds: 0.5)) {
            try session.fetch("https://127.0.0.1:\(listener.port)/")
        }
        // Timing is the behaviour: the connect timeout ends the wait for a server that never answers.
        let elapsed = ContinuousClock.now - start
        #expect(elapsed >= .milliseconds(500) && elapsed < .seconds(30), "\(elapsed)")
    }

    @Test func cancellationEndsAWaitingRequest() throws {
        let listener = try SilentListener()
        defer { listener.close() }
        let cancellation = HTTPCancellation()
        let session = HTTPSession(
            configuration: HTTPConfiguration(connectTimeout: .seconds(30), totalTimeout: .seconds(30)),
            cancellation: cancellation)
        // Cancelled once the request has connected and waits for the silent server's answer.
        DispatchQueue.global().async {
            _ = listener.waitForConnection(timeout: 30)
            cancellation.cancel()
        }
        let start = ContinuousClock.now
        #expect(throws: HTTPError.cancelled) { try session.fetch("https://127.0.0.1:\(listener.port)/") }
        #expect(ContinuousClock.now - start < .seconds(25), "the cancel ended the request, not its 30 s timeouts")
        #expect(throws: HTTPError.cancelled) { try session.fetch("https://127.0.0.1:\(listener.port)/") }
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
