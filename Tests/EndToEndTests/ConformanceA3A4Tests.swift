import Foundation
import Testing

/// TR-03124-2 test cases of the certificate description's subjectURL (module A3) and of the refresh
/// address (module A4) that had only unit tests (issue 18): each an `eid auth --json --open` run against the
/// shared eid-testserver with the fault that stages it, checked as `AuthFaultsTests` checks its faults (the
/// AUTH result, its url, the address handed to xdg-open, the exit status, the server's /result). The refresh
/// faults put the RefreshAddress on the server's other name (localhost for 127.0.0.1): another origin with
/// the same TLS certificate.
extension ThroughPCSCD {
    @Suite(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: E2E.binDir.appendingPathComponent("eid-testserver").path),
            "needs the built eid-testserver binary: run `make test`"),
        .sharedTestServer)
    struct ConformanceA3A4Tests {
        typealias Faults = AuthFaultsTests
        typealias Expected = AuthFaultsTests.Expected

        /// The attached model (no PSK in the TcToken): eid opens TLS-2 to the eService's own server
        /// requiring that it resume the TcToken fetch's session (a new session is refused), so the
        /// authentication ends ok only over a resumed session. The server logs each request with its
        /// connection (the client's port) and whether that connection resumed a TLS session
        /// (`--log-requests`): the TcToken's connection made a new session, and every connection that
        /// carried PAOS is another one that resumed. A server of its own, so that the log is this run's.
        @Test(
            """
            EID_CLIENT_A2_28: attached eID server: every TLS-2 connection resumes the TcToken's session and the \
            authentication succeeds
            """
        )
        func tls2ResumesTheTcTokensSession() throws {
            let log = FileManager.default.temporaryDirectory.appendingPathComponent(
                "eid-a2-28-\(UUID().uuidString).log")
            defer { try? FileManager.default.removeItem(at: log) }
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(reader: reader, port: port)
                defer { card.stop() }
                let server = try TestServerProcess(["--log-requests"], errorLog: log)
                defer { server.stop() }
                let success = Faults.success("attached", "")
                let problems = Faults.check(
                    success.name, url: server.origin + "/tctoken", commands: success.commands,
                    expected: success.expected, reader: reader, server: server)
                for problem in problems { Issue.record(Comment(rawValue: problem)) }
            }
            let connections = try Self.connections(in: String(contentsOf: log, encoding: .utf8))
            let tcToken = connections.filter { $0.requests.contains("GET /tctoken") }
            let paos = connections.filter { $0.requests.contains { $0.hasPrefix("POST /paos/") } }
            #expect(tcToken.count == 1 && tcToken.allSatisfy { !$0.resumed }, "TLS-1: \(connections)")
            #expect(!paos.isEmpty, "no connection carried PAOS: \(connections)")
            for connection in paos {
                #expect(connection.resumed, "a PAOS connection on a new TLS session: \(connection)")
                #expect(!connection.requests.contains("GET /tctoken"), "PAOS on TLS-1's connection: \(connection)")
            }
        }

        /// One connection the server logged (`--log-requests`): the client's address and port, whether its
        /// handshake resumed a TLS session, and its requests ("METHOD /path") in order.
        struct LoggedConnection: CustomStringConvertible {
            var peer: String
            var resumed: Bool
            var requests: [String]
            var description: String { "\(peer) (\(resumed ? "resumed" : "new")): \(requests)" }
        }

        /// The connections of an `eid-testserver serve --log-requests` standard error, in the order of their
        /// first request; a line that names no TLS session kind is a failure.
        static func connections(in log: String) throws -> [LoggedConnection] {
            var connections: [LoggedConnection] = []
            let prefix = "eid-testserver: request from "
            for line in log.split(separator: "\n") where line.hasPrefix(prefix) {
                let rest = line.dropFirst(prefix.count)
                let colon = try #require(rest.range(of: "): "), "no TLS session kind in: \(line)")
                let head = rest[..<colon.lowerBound]
                let request = String(rest[colon.upperBound...])
                let open = try #require(head.range(of: " (TLS "), "no TLS session kind in: \(line)")
                let peer = String(head[..<open.lowerBound])
                let resumed = head[open.upperBound...] == "resumed"
                if let index = connections.firstIndex(where: { $0.peer == peer }) {
                    #expect(connections[index].resumed == resumed, "one connection, two session kinds: \(line)")
                    connections[index].requests.append(request)
                } else {
                    connections.append(LoggedConnection(peer: peer, resumed: resumed, requests: [request]))
                }
            }
            return connections
        }

        /// The TLS handshakes `server` completed by resuming a session (its `/stats`).
        static func resumedHandshakes(_ server: TestServerProcess) throws -> Int {
            let stats = try runProgram("/usr/bin/curl", ["-sSk", "--max-time", "20", server.origin + "/stats"])
            let field = try #require(stats.stdout.firstRange(of: #""tlsResumed":"#), "no /stats: \(stats.stdout)")
            return Int(stats.stdout[field.upperBound...].prefix { $0.isNumber }) ?? -1
        }

        /// No subjectURL in the description: refused before the card, as AusweisApp2 refuses it
        /// (Certificate_Check_Failed_No_SubjectUrl_In_Description). The refresh address is then checked
        /// against the tcTokenURL, its origin: used as it is, the browser goes there with the error (with a
        /// subjectURL of another origin, `sop_violation`, it goes to the CommunicationErrorAddress).
        @Test(
            """
            EID_CLIENT_A3_03, EID_CLIENT_A4_03: a description without subjectURL is refused, and the refresh \
            address is checked against the tcTokenURL
            """
        )
        func aDescriptionWithoutSubjectURL() throws {
            let refused = Faults.reported(
                "no_subject_url", minor: "/al/common#parameterError",
                reason: "Certificate_Check_Failed_No_SubjectUrl_In_Description", status: 6,
                messages: Faults.beforeTheCard)
            try Faults.run([refused], server: try Faults.server, withCard: false)
        }

        /// The subjectURL names the server's host with another port: refused before the card as a
        /// same-origin violation, ending at the CommunicationErrorAddress (as `sop_violation`).
        @Test("EID_CLIENT_A3_05: a subjectURL that differs from the tcTokenURL in its port is refused before the card")
        func aSubjectURLOfAnotherPortIsRefused() throws {
            let refused = Faults.communicationErrorAddress(
                Faults.reported(
                    "sop_violation_port", minor: "/al/common#parameterError",
                    reason: "Certificate_Check_Failed_Same_Origin_Policy_Violation", status: 6,
                    messages: Faults.beforeTheCard))
            try Faults.run([refused], server: try Faults.server, withCard: false)
        }

        /// The RefreshAddress of another origin redirects to the service's refresh page: followed,
        /// the browser goes there with ResultMajor=ok.
        @Test("EID_CLIENT_A4_05: a redirect from the RefreshAddress to the service's origin is followed")
        func aRedirectToTheServicesOriginIsFollowed() throws {
            try Faults.run(
                [Faults.success("refresh_redirect", "?fault=refresh_redirect")], server: try Faults.server,
                withCard: true)
        }

        /// The RefreshAddress of another origin answers 200, no redirect; the CommunicationErrorAddress
        /// takes the browser.
        @Test("EID_CLIENT_A4_06: a RefreshAddress of another origin that answers no redirect is not used")
        func aRefreshAddressWithoutRedirectIsNotUsed() throws {
            try Self.endsAtTheCommunicationErrorAddress(
                "refresh_no_redirect", "Check_Refresh_Address_Invalid_Http_Response")
        }

        /// The RefreshAddress of another origin redirects to http: not followed; the
        /// CommunicationErrorAddress takes the browser.
        @Test("EID_CLIENT_A4_07: a RefreshAddress of another origin that redirects to http is not followed")
        func aRedirectToHTTPIsNotFollowed() throws {
            try Self.endsAtTheCommunicationErrorAddress(
                "refresh_redirect_http", "Check_Refresh_Address_No_Https_Scheme")
        }

        /// The connection after the TcToken's cannot resume its session (a session context of its own): eid
        /// refuses TLS-2 before StartPAOS, so no session starts. A server of its own: the fault applies to the
        /// next connection the server accepts, whoever makes it. This is also why A2_30 does not apply: it is
        /// for a client without session resumption (profile NO_SESSION_RESUMPTION), which would go on over the
        /// new session; eid always demands the resumption.
        @Test(
            """
            EID_CLIENT_A2_29, EID_CLIENT_A2_30: attached eID server: a TLS-2 that does not resume the TcToken's \
            session is refused (A2_30 n.a.: eid always resumes, profile NO_SESSION_RESUMPTION)
            """
        )
        func aTLS2ThatDoesNotResumeIsRefused() throws {
            let server = try TestServerProcess()
            defer { server.stop() }
            let problems = Faults.check(
                "tls2_not_resumed", url: server.origin + "/tctoken?fault=tls2_not_resumed",
                commands: [Faults.accept, Faults.pin],
                expected: Expected(
                    minor: "/dp#trustedChannelEstablishmentFailed",
                    reason: "Workflow_TrustedChannel_Error_From_Server", status: 7, messages: Faults.beforeTheCard,
                    urlPath: "/refresh", urlResult: "ResultMajor=error&ResultMinor=trustedChannelEstablishmentFailed",
                    serverOK: nil, stderrContains: ["did not resume the TLS session of the TcToken fetch"]),
                reader: E2E.readers[0].name, server: server)
            for problem in problems { Issue.record(Comment(rawValue: problem)) }
            #expect(try Self.resumedHandshakes(server) == 0)
        }

        /// The RefreshAddress of another origin answers, once the session has finished, with a TLS certificate
        /// that is not in CommCertificates: the refresh address is not used; the CommunicationErrorAddress takes
        /// the browser. A server of its own, as for `aTLS2ThatDoesNotResumeIsRefused`.
        @Test("EID_CLIENT_A4_08: a RefreshAddress hop whose TLS certificate is not in the description is not used")
        func aRefreshHopWithAnotherCertificateIsNotUsed() throws {
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(reader: reader, port: port)
                defer { card.stop() }
                let server = try TestServerProcess()
                defer { server.stop() }
                let fault = "refresh_tls_not_in_description"
                let problems = Faults.check(
                    fault, url: server.origin + "/tctoken?fault=" + fault, commands: [Faults.accept, Faults.pin],
                    expected: Self.atTheCommunicationErrorAddress(
                        "Check_Refresh_Address_Hash_Missing_In_Certificate", status: 6),
                    reader: reader, server: server)
                for problem in problems { Issue.record(Comment(rawValue: problem)) }
            }
        }

        /// The data were read (the server's session ends ok), then the refresh address check failed:
        /// communicationError, and the browser goes to the CommunicationErrorAddress.
        static func atTheCommunicationErrorAddress(_ reason: String, status: Int32 = 7) -> Expected {
            Expected(
                minor: "/al/common#communicationError", reason: reason, status: status, messages: Faults.succeeded,
                urlPath: "/refresh+error", urlResult: "ResultMajor=error&ResultMinor=communicationError", serverOK: true
            )
        }

        /// After the data were read (the server's session ends ok) the refresh address check fails:
        /// communicationError, and the browser goes to the CommunicationErrorAddress.
        static func endsAtTheCommunicationErrorAddress(_ fault: String, _ reason: String) throws {
            let expected = Self.atTheCommunicationErrorAddress(reason)
            try Faults.run(
                [
                    Faults.Case(
                        name: fault, query: "?fault=" + fault, commands: [Faults.accept, Faults.pin], expected: expected
                    )
                ],
                server: try Faults.server, withCard: true)
        }
    }
}
