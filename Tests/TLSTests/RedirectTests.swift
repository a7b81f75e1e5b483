import Foundation
import TLS
import Testing

/// TLS-1's redirects, one hop at a time, against two Python https servers with different certificates.
@Suite struct RedirectTests {
    let pki: TestPKI

    init() throws { pki = try TestPKI.get() }

    func withServers(_ body: (Int, Int) throws -> Void) throws {
        let server = try Peer.python("rsa3072", "ec256", pki: pki)
        defer { server.stop() }
        try body(server.ports[0], server.ports[1])
    }

    @Test func followsEveryHopAndKeepsEachCertificate() throws {
        try withServers { a, b in
            let chain = try HTTPSession().fetch("https://127.0.0.1:\(a)/start")
            #expect(chain.hops.map(\.status) == [302, 303, 200])
            #expect(
                chain.hops.map(\.url) == [
                    "https://127.0.0.1:\(a)/start", "https://127.0.0.1:\(b)/middle", "https://127.0.0.1:\(a)/final",
                ])
            let expected = [try pki.der("rsa3072"), try pki.der("ec256"), try pki.der("rsa3072")]
            #expect(chain.serverCertificates == expected)
            #expect(chain.response.body == Array("TcToken".utf8))
            #expect(chain.response.header("content-type") == "text/plain")
        }
    }

    @Test func resolvesARelativeLocation() throws {
        try withServers { a, _ in
            let chain = try HTTPSession().fetch("https://127.0.0.1:\(a)/relative")
            #expect(chain.hops.map(\.url) == ["https://127.0.0.1:\(a)/relative", "https://127.0.0.1:\(a)/final"])
        }
    }

    @Test func stopsALoop() throws {
        try withServers { a, _ in
            let session = HTTPSession(configuration: HTTPConfiguration(maximumRedirects: 3))
            #expect(throws: HTTPError.tooManyRedirects(limit: 3)) { try session.fetch("https://127.0.0.1:\(a)/loop") }
        }
    }

    @Test("EID_CLIENT_A2_10: the TcToken fetch refuses a redirect to http")
    func refusesARedirectToHTTP() throws {
        try withServers { a, _ in
            #expect(throws: HTTPError.notHTTPS(url: "http://127.0.0.1:\(a)/final")) {
                try HTTPSession().fetch("https://127.0.0.1:\(a)/http")
            }
        }
    }

    @Test func refusesARedirectWithoutLocation() throws {
        try withServers { a, _ in
            #expect(throws: HTTPError.redirectWithoutLocation(status: 302)) {
                try HTTPSession().fetch("https://127.0.0.1:\(a)/nolocation")
            }
        }
    }

    @Test func boundsTheResponseSize() throws {
        try withServers { a, _ in
            let session = HTTPSession(configuration: HTTPConfiguration(maximumResponseBytes: 1000))
            let count = try session.fetch("https://127.0.0.1:\(a)/big?n=1000").response.body.count
            #expect(count == 1000)
            #expect(throws: HTTPError.responseTooLarge(limit: 1000)) {
                try session.fetch("https://127.0.0.1:\(a)/big?n=1001")
            }
        }
    }

    @Test func boundsTheWholeRequest() throws {
        try withServers { a, _ in
            let session = HTTPSession(configuration: HTTPConfiguration(totalTimeout: .milliseconds(700)))
            let start = ContinuousClock.now
            #expect(throws: HTTPError.timedOut(seconds: 0.7)) { try session.fetch("https://127.0.0.1:\(a)/slow") }
            // Timing is the behaviour: the total timeout, not the slow server, ends the request.
            let elapsed = ContinuousClock.now - start
            #expect(elapsed >= .milliseconds(700) && elapsed < .seconds(30), "\(elapsed)")
        }
    }
}
