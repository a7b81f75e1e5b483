import Foundation
import Testing

@testable import TestServerHTTPS

/// What the front end allows: connections and sessions at once, and headers that no request can
/// bend (response splitting).
@Suite struct FrontEndLimitsTests {
    /// A plain TCP connection to `port` that sends nothing (it holds a connection slot).
    final class IdleConnection {
        let fd: Int32
        init(port: Int) throws {
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard fd >= 0, connected == 0 else { throw FixtureError.status(0, "cannot connect") }
        }
        deinit { close(fd) }
    }

    /// Waits (at most 10 s) until `condition` holds.
    func eventually(_ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return true
    }

    @Test func aConnectionBeyondTheCapIsClosedAtOnceAndSlotsFreeWhenConnectionsClose() throws {
        let server = try TestServerFixture { $0.maximumConnections = 2 }
        let statistics = server.server.routes.statistics
        var idle = [try IdleConnection(port: server.port), try IdleConnection(port: server.port)]
        #expect(eventually { statistics.openConnections == 2 })
        #expect(try server.curl("/").code == 0, "a third connection was served")
        #expect(statistics.refusedConnections >= 1)
        idle.removeAll()
        #expect(eventually { statistics.openConnections == 0 })
        #expect(try server.curl("/").code == 200)
    }

    @Test func aTcTokenFloodGets503WithRetryAfterAndDoesNotEndRunningSessions() throws {
        let server = try TestServerFixture { $0.maximumSessions = 2 }
        let first = try server.tcToken().sessionIdentifier
        _ = try server.tcToken()
        let head = server.directory + "/head"
        #expect(try server.curl("/tctoken", ["-D", head]).code == 503)
        #expect(try String(contentsOfFile: head, encoding: .utf8).lowercased().contains("retry-after: 1\r\n"))
        // The first session still runs: its PAOS endpoint answers (the stub ends it with StartPAOS).
        let (code, _) = try server.curl(
            "/paos/" + first,
            TestServerFixture.paosHeaders + [
                "--data-binary", String(decoding: TestServerFixture.startPAOS(first), as: UTF8.self),
            ])
        #expect(code == 200)
        // Its slot is free again.
        #expect(try server.curl("/tctoken").code == 200)
    }

    @Test func lineBreaksInTheQueryNeverReachAHeader() throws {
        let server = try TestServerFixture()
        let head = server.directory + "/head"
        let (code, _) = try server.curl("/tctoken?fault=redirect,x%0D%0ASet-Cookie:%20evil=1%0D%0A", ["-D", head])
        #expect(code == 303)
        let headers = try String(contentsOfFile: head, encoding: .utf8)
        #expect(!headers.lowercased().contains("\r\nset-cookie:"), "\(headers)")
        #expect(headers.contains("Location: \(server.origin)/tctoken?fault=x%0D%0ASet-Cookie%3A%20evil%3D1%0D%0A\r\n"))
    }

    /// The refresh page shows the client's result parameters as text: markup in them is escaped.
    @Test func theRefreshPageEscapesWhatTheClientSent() {
        let routes = FrontEndRoutes(
            configuration: FrontEndConfiguration(), keys: PSKStore(), handler: StubPAOSSessionHandler())
        let response = routes.respond(
            to: FrontEndRequest(method: "GET", uri: "/refresh?ResultMajor=%3Cb%20x=%22y%22%3E%27%26%3C/b%3E"))
        let page = String(decoding: response.body, as: UTF8.self)
        #expect(page.contains("<h1>eID login: &lt;b x=&quot;y&quot;&gt;&#39;&amp;&lt;/b&gt;</h1>"), "\(page)")
        #expect(!page.contains("<b "))
    }

    /// Every route, with CR, LF and NUL in every parameter and the path: no header carries them.
    @Test func noRouteWritesAHeaderWithALineBreak() {
        let routes = FrontEndRoutes(
            configuration: FrontEndConfiguration(), keys: PSKStore(), handler: StubPAOSSessionHandler())
        let evil = "%0D%0ALocation:%20x%00%0A"
        let uris = [
            "/", "/?x=\(evil)", "/tctoken?fault=redirect,\(evil)", "/tctoken?fault=redirect&fault=\(evil)",
            "/tctoken?fault=\(evil)", "/refresh?session=\(evil)&ResultMajor=\(evil)&ResultMinor=\(evil)",
            "/result?session=\(evil)", "/stats?\(evil)", "/paos/\(evil)", "/\(evil)",
        ]
        for uri in uris {
            for method in ["GET", "POST", "HEAD"] {
                let response = routes.respond(to: FrontEndRequest(method: method, uri: uri))
                #expect(response.headersAreSafe, "\(method) \(uri): \(response.headers)")
            }
        }
        var split = FrontEndResponse.text(303, "")
        split.headers.append(("Location", "/x\r\nSet-Cookie: a=b"))
        #expect(!split.headersAreSafe)
    }
}
