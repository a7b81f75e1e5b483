import Foundation
import Online
import OnlineClient
import TLS
import Testing
import Workflows

/// OnlineClient over real TLS against the Python https servers: the TcToken fetch across two
/// servers (every certificate kept), then PAOS POSTs over TLS-2 resuming TLS-1's session with the
/// headers of docs/protocol.md, "PAOS binding", and the errors a user sees.
@Suite struct HTTPPAOSTransportTests {
    let pki: TestPKI

    init() throws { pki = try TestPKI.get() }

    @Test("EID_CLIENT_A2_28: the TcToken fetched, then PAOS posted on a connection that resumed a session")
    func fetchesTheTcTokenThenPostsPAOSOnAResumedSession() throws {
        let server = try Peer.python("rsa3072", "ec256", pki: pki)
        defer { server.stop() }
        let a = server.ports[0]
        let session = HTTPSession()
        let fetched = try TcTokenFetch(session: session).fetch("https://127.0.0.1:\(a)/tctoken-start")
        #expect(fetched.tcToken.serverAddress == "https://127.0.0.1:\(a)/paos")
        #expect(fetched.tcToken.psk == nil)
        #expect(fetched.serverCertificates == [try pki.der("rsa3072"), try pki.der("ec256")])
        let transport = try HTTPPAOSTransport(session: session, fetched: fetched)
        let first = try transport.exchange(Array("<StartPAOS/>".utf8))
        let second = try transport.exchange(Array("<next/>".utf8))
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(first)) as? [String: Any])
        #expect(answer["length"] as? Int == 12)
        #expect(answer["paos"] as? String == #"ver="urn:liberty:paos:2006-08""#)
        #expect(answer["contentType"] as? String == "application/vnd.paos+xml; charset=UTF-8")
        #expect(answer["accept"] as? String == "text/html; application/vnd.paos+xml")
        let again = try #require(try JSONSerialization.jsonObject(with: Data(second)) as? [String: Any])
        #expect(again["requestsOnConnection"] as? Int == 2, "TLS-2 is kept alive between PAOS messages")
        // The server's view of each POST's connection (Python's SSLSocket.session_reused), not eid's own.
        #expect(answer["sessionReused"] as? Bool == true, "the first PAOS connection resumed a TLS session")
        #expect(again["sessionReused"] as? Bool == true, "the second PAOS message's connection resumed one")
        // TLS-2's certificate (server A's, seen before) is not listed twice.
        #expect(transport.serverCertificates == [try pki.der("rsa3072"), try pki.der("ec256")])
    }

    /// The fetched body (a TcToken holds the PSK) is the caller's alone: zeroing it happens in
    /// place, no copy-on-write leaves the bytes in a buffer the transfer still holds (issue 15).
    @Test func theFetchedBodyIsZeroedInPlace() throws {
        let server = try Peer.python("rsa3072", "ec256", pki: pki)
        defer { server.stop() }
        // The session lives on, as TcTokenFetch's does (TLS-2 resumes its TLS-1 sessions).
        let session = HTTPSession()
        defer { withExtendedLifetime(session) {} }
        var chain = try session.fetch("https://127.0.0.1:\(server.ports[0])/tctoken-start")
        let last = chain.hops.count - 1
        #expect(!chain.hops[last].body.isEmpty)
        let before = chain.hops[last].body.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        let token = TcToken.parse(wiping: &chain.hops[last].body)
        #expect((try? token.get()) != nil)
        let after = chain.hops[last].body.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        #expect(before == after, "zeroed in place, not in a copy")
        #expect(chain.hops[last].body.allSatisfy { $0 == 0 })
    }

    @Test func aTokenThatIsNoTcTokenIsRefusedAndANonTokenStatusIsUnavailable() throws {
        let server = try Peer.python("rsa3072", "ec256", pki: pki)
        defer { server.stop() }
        let fetch = TcTokenFetch(session: HTTPSession())
        #expect {
            _ = try fetch.fetch("https://127.0.0.1:\(server.port)/final")
        } throws: { error in
            guard case .invalid = error as? TcTokenFetch.Failure else { return false }
            return (error as? TcTokenFetch.Failure)?.reason.exitStatus == ExitStatus.refused
        }
        #expect {
            _ = try fetch.fetch("https://127.0.0.1:\(server.port)/nothing-here")
        } throws: { error in
            guard case .unavailable(.httpStatus(404)) = error as? TcTokenFetch.Failure else { return false }
            return true
        }
        #expect {
            _ = try fetch.fetch("https://127.0.0.1:\(server.port)/loop")
        } throws: { error in
            guard case .unavailable(.badRedirect) = error as? TcTokenFetch.Failure else { return false }
            return true
        }
    }
}
