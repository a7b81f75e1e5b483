import Foundation
import Testing

/// TR-03124-2 runs the modules A1, A2, A4 and E a second time through an HTTP CONNECT proxy. Here the proxy is
/// Debian's tinyproxy on loopback (`TinyproxyProcess`), eid has `https_proxy` (or its siblings) set, and each
/// test has an `eid-testserver serve --log-requests` of its own, which logs every request with the address it
/// came from. What shows that eid went through the proxy: tinyproxy's log has a CONNECT to the server for the
/// TLS connections (TcToken, TLS-2, refresh address), and every request the server saw from eid came from
/// tinyproxy's outgoing address (127.0.0.2), none straight from eid (127.0.0.1). The cases are
/// `AuthFaultsTests`' (same expectations), run through the proxy.
extension ThroughPCSCD {
    @Suite(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: E2E.binDir.appendingPathComponent("eid-testserver").path),
            "needs the built eid-testserver binary: run `make test`"))
    struct ProxyTests {
        typealias Faults = AuthFaultsTests

        /// An eid-testserver with --log-requests, and the requests it logged.
        final class LoggedServer: @unchecked Sendable {  // read-only after init
            let server: TestServerProcess
            let log: URL

            init(_ arguments: [String] = []) throws {
                log = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "eid-proxy-\(UUID().uuidString).log")
                server = try TestServerProcess(arguments + ["--log-requests"], errorLog: log)
            }

            /// (peer address, "METHOD /path") of every request but the tests' own `/result` questions.
            var requests: [(peer: String, request: String)] {
                let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                return text.split(separator: "\n").compactMap { line in
                    guard line.hasPrefix("eid-testserver: request from ") else { return nil }
                    let rest = line.dropFirst("eid-testserver: request from ".count)
                    guard let colon = rest.range(of: ": ") else { return nil }
                    let request = String(rest[colon.upperBound...])
                    return request.hasSuffix(" /result") ? nil : (String(rest[..<colon.lowerBound]), request)
                }
            }

            func stop() {
                server.stop()
                try? FileManager.default.removeItem(at: log)
            }

            deinit { stop() }
        }

        /// Records what `problems` found.
        static func record(_ problems: [String]) {
            for problem in problems { Issue.record(Comment(rawValue: problem)) }
        }

        /// Every CONNECT went to `server`, at least `minimum` of them; every request `server` saw came from the
        /// proxy, and each of `requests` (a "METHOD /path" prefix) among them.
        static func expectThroughProxy(
            _ proxy: TinyproxyProcess, _ server: LoggedServer, minimum: Int, requests expected: [String]
        ) {
            let connects = proxy.connects
            #expect(connects.count >= minimum, "\(connects.count) CONNECTs: \(proxy.log)")
            #expect(connects.allSatisfy { $0 == "127.0.0.1:\(server.server.port)" }, "\(connects)")
            let seen = server.requests
            #expect(!seen.isEmpty, "the server logged no request")
            for (peer, request) in seen {
                #expect(peer.hasPrefix(TinyproxyProcess.outgoingAddress + ":"), "\(request) came from \(peer)")
            }
            for request in expected {
                #expect(seen.contains { $0.request.hasPrefix(request) }, "no \(request) in \(seen.map(\.request))")
            }
        }

        /// Runs the success `cases` through a new proxy to a new server, one after another with one card.
        static func succeedThroughProxy(_ cases: [Faults.Case]) throws {
            let logged = try LoggedServer()
            defer { logged.stop() }
            let proxy = try TinyproxyProcess(connectPorts: [Int(logged.server.port)!])
            defer { proxy.stop() }
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(reader: reader, port: port)
                defer { card.stop() }
                for next in cases {
                    record(
                        Faults.check(
                            next.name, url: logged.server.origin + "/tctoken" + next.query, commands: next.commands,
                            expected: next.expected, reader: reader, server: logged.server,
                            environment: ["https_proxy": proxy.url]))
                }
            }
            // TLS-1 and TLS-2 are two connections at least per run; the refresh address's check rides TLS-1's.
            expectThroughProxy(
                proxy, logged, minimum: 2 * cases.count, requests: ["GET /tctoken", "POST /paos/", "HEAD /refresh"])
        }

        /// The success variants of `AuthFaultsTests` through the proxy: plain is the attached model (A2_18), psk the
        /// PSK channel (A2_01), redirect a 303 to the TcToken (A2_07); each ends at the refresh address (A4_01).
        @Test(
            """
            EID_CLIENT_A2_01, EID_CLIENT_A2_07, EID_CLIENT_A2_18, EID_CLIENT_A4_01: Through proxy (TR-03124-2 A2, A4, \
            E): TLS-1, TLS-2 resuming it, TLS-2 with PSK, a redirect, the refresh address
            """
        )
        func authenticationsSucceedThroughTheProxy() throws {
            try Self.succeedThroughProxy([
                Faults.success("plain through proxy", ""), Faults.success("psk through proxy", "?fault=psk"),
                Faults.success("redirect through proxy", "?fault=redirect"),
            ])
        }

        @Test("EID_CLIENT_A2_19: Through proxy: a TcToken naming TLS-PSK without a PSK authenticates (attached model)")
        func pskProtocolWithoutParametersThroughTheProxy() throws {
            try Self.succeedThroughProxy([
                Faults.success("EID_CLIENT_A2_19 through proxy", "?fault=psk_protocol_no_parameters")
            ])
        }

        /// The TLS checks hold through the tunnel (TLS is eid's with the server, the proxy only relays): a PSK the
        /// server does not know, a certificate not in the description at the refresh address (A4: the
        /// CommunicationErrorAddress), a certificate description whose hash does not match, and an expired TLS
        /// certificate (a second server). tls_not_in_description is A3_01 and A3_02 (the one server is eService and
        /// eID server), description_hash_mismatch A3_06, as in `AuthFaultsTests`.
        @Test(
            """
            EID_CLIENT_A3_01, EID_CLIENT_A3_02, EID_CLIENT_A3_06: Through proxy (TR-03124-2 A3, A4, E): refusals \
            found before the card are those without a proxy
            """
        )
        func refusalsBeforeTheCardThroughTheProxy() throws {
            let logged = try LoggedServer()
            defer { logged.stop() }
            let pki = try Faults.tlsPKI.get()
            let expired = try LoggedServer([
                "--tls-certificate", pki.appendingPathComponent("expired.pem").path,
                "--tls-key", pki.appendingPathComponent("expired.key").path,
            ])
            defer { expired.stop() }
            let proxy = try TinyproxyProcess(connectPorts: [Int(logged.server.port)!, Int(expired.server.port)!])
            defer { proxy.stop() }
            let environment = ["https_proxy": proxy.url]
            let names = ["psk_wrong_key", "tls_not_in_description", "description_hash_mismatch"]
            let cases = (Faults.foundBeforeTheCard + [Faults.pskWrongKey]).filter { names.contains($0.name) }
            #expect(cases.count == names.count)
            let problems = Problems()
            inParallel(cases, width: 3) { next in
                problems.add(
                    Faults.check(
                        next.name + " through proxy", url: logged.server.origin + "/tctoken" + next.query,
                        commands: next.commands, expected: next.expected, reader: E2E.readers[0].name,
                        server: logged.server, environment: environment))
            }
            problems.add(
                Faults.check(
                    "expired TLS certificate through proxy", url: expired.server.origin + "/tctoken",
                    commands: [Faults.accept, Faults.pin],
                    expected: Faults.Expected(
                        minor: "/dp#trustedChannelEstablishmentFailed",
                        reason: "Workflow_TrustedChannel_Establishment_Error", status: 7,
                        messages: Faults.beforeTheCard, urlPath: nil, urlResult: nil, serverOK: nil),
                    reader: E2E.readers[0].name, server: nil, environment: environment))
            Self.record(problems.all)
            let connects = proxy.connects
            #expect(connects.contains("127.0.0.1:\(expired.server.port)"), "\(connects)")
            #expect(expired.requests.isEmpty, "the expired server answered \(expired.requests)")
            #expect(connects.filter { $0 == "127.0.0.1:\(logged.server.port)" }.count >= 2 * cases.count)
            for (peer, request) in logged.requests {
                #expect(peer.hasPrefix(TinyproxyProcess.outgoingAddress + ":"), "\(request) came from \(peer)")
            }
        }

        /// `tls_changed_after_eac1` through the proxy: the server's new certificate on the reconnect after EAC1
        /// (through a new CONNECT) is refused in the handshake, as without a proxy.
        @Test("Through proxy (TR-03124-2 E): a TLS certificate changed after EAC1 is refused on the proxied reconnect")
        func aCertificateChangedAfterEAC1IsRefusedThroughTheProxy() throws {
            let logged = try LoggedServer()
            defer { logged.stop() }
            let proxy = try TinyproxyProcess(connectPorts: [Int(logged.server.port)!])
            defer { proxy.stop() }
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(reader: reader, port: port)
                defer { card.stop() }
                for query in ["?fault=tls_changed_after_eac1", "?fault=psk,tls_changed_after_eac1"] {
                    Self.record(
                        Faults.check(
                            query + " through proxy", url: logged.server.origin + "/tctoken" + query,
                            commands: [Faults.accept, Faults.pin],
                            expected: Faults.Expected(
                                minor: "/dp#trustedChannelEstablishmentFailed",
                                reason: "Generic_Send_Receive_Certificate_Error", status: 6,
                                messages: Faults.succeeded, urlPath: "/refresh",
                                urlResult: "ResultMajor=error&ResultMinor=trustedChannelEstablishmentFailed",
                                serverOK: nil),
                            reader: reader, server: logged.server, environment: ["https_proxy": proxy.url]))
                }
            }
            let results = try #require(try logged.server.result(session: nil), "no /result")
            #expect(results.contains("no session has finished yet"), "a session went on: \(results)")
            // TLS-1, TLS-2, and the reconnect after EAC1 whose certificate was refused, per run.
            Self.expectThroughProxy(proxy, logged, minimum: 6, requests: ["GET /tctoken", "POST /paos/"])
        }

        /// The proxy killed (SIGKILL) while eid waits for the PIN: the tunnel breaks, the next PAOS POST cannot
        /// reach the proxy again, and eid ends at once with the proxy named, as with the server killed mid-PAOS.
        @Test("Through proxy: the proxy killed mid-PAOS ends the authentication at once, naming the proxy")
        func theProxyKilledMidPAOS() throws {
            let logged = try LoggedServer()
            defer { logged.stop() }
            let proxy = try TinyproxyProcess(connectPorts: [Int(logged.server.port)!])
            defer { proxy.stop() }
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(reader: reader, port: port)
                defer { card.stop() }
                let auth = try InteractiveRun(
                    ["auth", "--json", "--test-pki", "--reader", reader, logged.server.origin + "/tctoken"],
                    environment: ["https_proxy": proxy.url])
                try auth.expect("ACCESS_RIGHTS")
                auth.send(Faults.accept)
                try auth.expect("ENTER_PIN")
                proxy.kill()
                let started = Date()
                auth.send(Faults.pin)
                let end = auth.finish(timeout: 40)
                #expect(Date().timeIntervalSince(started) < 30)
                #expect(end.status == 7, "\(end.stderr)")
                let last = try jsonObject(try #require(end.lines.last))
                let result = try #require(last["result"] as? [String: Any])
                #expect(result["minor"] as? String == Faults.resultMinor + "/dp#trustedChannelEstablishmentFailed")
                let message = result["message"] as? String ?? ""
                #expect(message.contains("the proxy 127.0.0.1:\(proxy.port)"), "\(message)")
                let url = last["url"] as? String
                #expect(url?.hasPrefix(logged.server.origin + "/refresh?session=") == true, "\(url ?? "none")")
            }
        }
    }
}
