import Foundation
import TLS
import Testing

/// TLS-2 without a pre-shared key: a new connection that resumes TLS-1's session, then PAOS-style POSTs on it.
@Suite struct ResumptionTests {
    let pki: TestPKI

    init() throws { pki = try TestPKI.get() }

    @Test(arguments: [[String](), ["-tls1_2"]])
    func theSecondChannelResumesTheFirstOnesSession(extra: [String]) throws {
        let server = try Peer.sServer(["-cert", "ec256.pem", "-key", "ec256.key", "-www"] + extra, pki: pki)
        defer { server.stop() }
        let session = HTTPSession()
        let url = "https://127.0.0.1:\(server.port)/"
        let first = try session.fetch(url).response
        #expect(first.tls.sessionResumed == false)
        let second = try session.send(HTTPRequest(url: url), over: .resumingWeb)
        #expect(second.tls.sessionResumed)
        #expect(second.tls.serverCertificate == first.tls.serverCertificate)
        #expect(second.tls.chainTrusted == first.tls.chainTrusted)
    }

    @Test("EID_CLIENT_A2_29: a server that does not resume the TcToken's session is refused")
    func aServerThatDoesNotResumeIsRefused() throws {
        let server = try Peer.sServer(
            ["-cert", "ec256.pem", "-key", "ec256.key", "-www", "-no_cache", "-no_ticket"], pki: pki)
        defer { server.stop() }
        let session = HTTPSession()
        let url = "https://127.0.0.1:\(server.port)/"
        _ = try session.fetch(url)
        #expect(throws: HTTPError.tls(.sessionNotResumed)) {
            try session.send(HTTPRequest(url: url), over: .resumingWeb)
        }
    }

    @Test func withoutAFirstSessionThereIsNothingToResume() throws {
        let server = try Peer.sServer(["-cert", "ec256.pem", "-key", "ec256.key", "-www"], pki: pki)
        defer { server.stop() }
        #expect(throws: HTTPError.tls(.sessionNotResumed)) {
            try HTTPSession().send(HTTPRequest(url: "https://127.0.0.1:\(server.port)/"), over: .resumingWeb)
        }
    }

    @Test func postsGoOverOneResumedKeptAliveConnection() throws {
        let server = try Peer.python("rsa3072", "ec256", pki: pki)
        defer { server.stop() }
        let session = HTTPSession()
        let base = "https://127.0.0.1:\(server.ports[0])"
        _ = try session.fetch("\(base)/final")
        let headers = [
            HTTPHeader(name: "PAOS", value: "ver=\"urn:liberty:paos:2006-08\""),
            HTTPHeader(name: "Content-Type", value: "application/vnd.paos+xml"),
        ]
        let body = Array(String(repeating: "<StartPAOS/>", count: 200).utf8)
        var answers: [String] = []
        for _ in 0..<2 {
            let response = try session.send(
                HTTPRequest(url: "\(base)/paos", method: .post(body: body), headers: headers), over: .resumingWeb)
            #expect(response.status == 200)
            #expect(response.tls.sessionResumed)
            answers.append(String(decoding: response.body, as: UTF8.self))
        }
        #expect(answers[0].contains("\"length\": \(body.count)"))
        #expect(answers[0].contains("urn:liberty:paos:2006-08"))
        #expect(answers[0].contains("\"requestsOnConnection\": 1"))
        #expect(answers[1].contains("\"requestsOnConnection\": 2"))
    }

    @Test func headersThatSmuggleLinesAreRefused() {
        #expect(throws: HTTPError.invalidHeader(name: "X")) {
            try HTTPSession().send(
                HTTPRequest(url: "https://127.0.0.1:1/", headers: [HTTPHeader(name: "X", value: "a\r\nEvil: 1")]),
                over: .web)
        }
    }
}
