import Foundation
import Testing

/// The proxy variables as curl reads them, and a proxy that is down, refuses the CONNECT or wants credentials:
/// each a run of `eid auth` with a fault found before the card (`description_hash_mismatch`: the TcToken over
/// TLS-1, StartPAOS and EAC1 over TLS-2, refused before the PIN), against tinyproxy and a server of the test's
/// own. And `eid serve` (A1, the activation interface) through the proxy.
extension ThroughPCSCD.ProxyTests {
    static let beforeTheCard = Faults.foundBeforeTheCard.first { $0.name == "description_hash_mismatch" }!

    /// What a proxy failure ends with: no TcToken, so no address to send the browser to; exit 7 (network).
    static func proxyFailure(_ message: String...) -> Faults.Expected {
        var expected = Faults.Expected(
            minor: "/dp#trustedChannelEstablishmentFailed", reason: "Workflow_TrustedChannel_Establishment_Error",
            status: 7, messages: Faults.beforeTheCard, urlPath: nil, urlResult: nil, serverOK: nil)
        expected.messageContains = message
        return expected
    }

    /// Runs `beforeTheCard` with `environment`, expecting `expected` (default: its usual result).
    static func run(
        _ name: String, _ logged: LoggedServer, environment: [String: String], expected: Faults.Expected? = nil
    ) -> [String] {
        let expected = expected ?? beforeTheCard.expected
        return Faults.check(
            name, url: logged.server.origin + "/tctoken" + beforeTheCard.query, commands: beforeTheCard.commands,
            expected: expected, reader: E2E.readers[0].name, server: expected.urlPath == nil ? nil : logged.server,
            environment: environment)
    }

    /// TR-03124-2 D_17 (profile PROXY_CONFIG: the proxy can be configured): curl's variables: https_proxy (the
    /// other tests), HTTPS_PROXY and all_proxy name the proxy too; no_proxy (or NO_PROXY) listing the host,
    /// or `*`, sends the requests straight to the server (127.0.0.1 is no exception of its own: the tests
    /// above reach it through the proxy with no no_proxy at all).
    @Test(
        """
        EID_CLIENT_D_17: Through proxy: the proxy is configured as for curl: HTTPS_PROXY and all_proxy are used; \
        no_proxy and NO_PROXY listing the host bypass the proxy
        """
    )
    func theProxyVariablesAsCurlReadsThem() throws {
        let logged = try LoggedServer()
        defer { logged.stop() }
        let proxy = try TinyproxyProcess(connectPorts: [Int(logged.server.port)!])
        defer { proxy.stop() }
        let origin = "127.0.0.1:\(logged.server.port)"
        let bypassing: [[String: String]] = [
            ["https_proxy": proxy.url, "no_proxy": "127.0.0.1"],
            ["HTTPS_PROXY": proxy.url, "NO_PROXY": "example.org, 127.0.0.1"],
            ["all_proxy": proxy.url, "no_proxy": "*"],
        ]
        for environment in bypassing {
            Self.record(Self.run("bypassing with \(environment)", logged, environment: environment))
        }
        #expect(proxy.connects.isEmpty, "a CONNECT despite no_proxy: \(proxy.connects)")
        let direct = logged.requests
        #expect(direct.contains { $0.request.hasPrefix("POST /paos/") }, "\(direct)")
        #expect(direct.allSatisfy { $0.peer.hasPrefix("127.0.0.1:") }, "\(direct)")
        for variable in ["HTTPS_PROXY", "all_proxy", "ALL_PROXY"] {
            let before = proxy.connects.count
            Self.record(
                Self.run(
                    "\(variable) with a no_proxy of other hosts", logged,
                    environment: [variable: proxy.url, "no_proxy": "localhost,example.org"]))
            let connects = proxy.connects.dropFirst(before)
            #expect(connects.count >= 2, "\(variable): \(connects.count) CONNECTs")
            #expect(connects.allSatisfy { $0 == origin }, "\(connects)")
        }
        let proxied = logged.requests.dropFirst(direct.count)
        #expect(proxied.allSatisfy { $0.peer.hasPrefix(TinyproxyProcess.outgoingAddress + ":") }, "\(proxied)")
    }

    /// A proxy that refuses the CONNECT (403: its ConnectPort rules), one that is down, an https:// proxy, and one
    /// that wants credentials: given in the URL they work and appear nowhere in eid's output; wrong ones are
    /// refused. Each ends at once with the TcToken unavailable (dp#trustedChannelEstablishmentFailed) and a
    /// message that names the proxy, never its password.
    @Test("Through proxy: a proxy that refuses, is down or wants credentials gives a clear error at once")
    func proxyFailuresAreClearErrors() throws {
        let logged = try LoggedServer()
        defer { logged.stop() }
        let refusing = try TinyproxyProcess(connectPorts: [Int(logged.server.port)! == 443 ? 444 : 443])
        defer { refusing.stop() }
        let down = try E2E.freePort()
        let password = "proxy-pass-7f3a"
        let guarded = try TinyproxyProcess(
            connectPorts: [Int(logged.server.port)!], credentials: (user: "eiduser", password: password))
        defer { guarded.stop() }
        let withCredentials = "http://eiduser:\(password)@127.0.0.1:\(guarded.port)"
        let wrongCredentials = "http://eiduser:wrong-pass-91c2@127.0.0.1:\(guarded.port)"
        let started = Date()
        var problems = Self.run(
            "a refusing proxy", logged, environment: ["https_proxy": refusing.url],
            expected: Self.proxyFailure(
                "the proxy 127.0.0.1:\(refusing.port) refused the connection to 127.0.0.1 (HTTP 403)"))
        problems += Self.run(
            "a proxy that is down", logged, environment: ["https_proxy": "http://127.0.0.1:\(down)"],
            expected: Self.proxyFailure("could not connect with the proxy 127.0.0.1:\(down)"))
        problems += Self.run(
            "an https proxy", logged, environment: ["https_proxy": "https://127.0.0.1:\(guarded.port)"],
            expected: Self.proxyFailure("https_proxy names a proxy of scheme https"))
        var wrong = Self.proxyFailure("the proxy 127.0.0.1:\(guarded.port) refused", "credentials")
        wrong.secrets = ["wrong-pass-91c2"]
        problems += Self.run(
            "wrong proxy credentials", logged, environment: ["https_proxy": wrongCredentials], expected: wrong)
        #expect(Date().timeIntervalSince(started) < 30, "the failures took \(Date().timeIntervalSince(started)) s")
        var right = Self.beforeTheCard.expected
        right.secrets = [password]
        problems += Self.run(
            "proxy credentials", logged, environment: ["https_proxy": withCredentials], expected: right)
        Self.record(problems)
        #expect(refusing.log.contains("Refused CONNECT method on port"), "\(refusing.log)")
        #expect(guarded.connects.count >= 2, "\(guarded.log)")
        #expect(!guarded.log.contains(password), "tinyproxy logged the password")
    }

    /// TR-03124-2 A1 (A1_01) through the proxy: `eid serve` (its in-process card) with https_proxy set takes a browser's
    /// activation, authenticates through the proxy and sends the browser to the refresh address.
    @Test("EID_CLIENT_A1_01: Through proxy: eid serve's browser activation authenticates through the proxy")
    func eidServeGoesThroughTheProxy() throws {
        let logged = try LoggedServer()
        defer { logged.stop() }
        let proxy = try TinyproxyProcess(connectPorts: [Int(logged.server.port)!])
        defer { proxy.stop() }
        let serve = try ServeProcess(
            ["--simulator"], environment: ServeTests.noPCSCD.merging(["https_proxy": proxy.url]) { $1 })
        defer { serve.stop() }
        let client = try SDKClientScript(serve.kernel, mode: "auth")
        let browser = try HTTPExchange.curl(ServeTests.activation(serve, tcTokenURL: "\(logged.server.origin)/tctoken"))
        #expect(browser.statuses == [102, 303])
        let location = try #require(browser.headers["location"])
        #expect(
            location.hasPrefix("\(logged.server.origin)/refresh?") && location.contains("ResultMajor=ok"), "\(location)"
        )
        let (status, messages) = client.finish()
        #expect(status == 0)
        #expect(messages.last?.contains("resultmajor#ok") == true, "\(messages)")
        #expect(try logged.server.result(session: nil)?.hasPrefix(#"{"ok":true"#) == true)
        Self.expectThroughProxy(proxy, logged, minimum: 2, requests: ["GET /tctoken", "POST /paos/", "HEAD /refresh"])
    }
}
