import Foundation
import Testing

/// TR-03124-2 module E on TLS-1, the channel to the tcTokenURL, as `eid auth` meets it: each case an
/// `eid auth --json --open` run whose tcTokenURL is an `openssl s_server -www` (certificates of
/// Tests/Support/tls-test-pki.sh), checked as `AuthFaultsTests` checks its faults. A certificate for
/// another host (E_05_a: not in the subjectAltName; E_05_b: no subjectAltName, another common name) ends
/// the fetch before the card with no TcToken and no address, as a refused TLS-1 does; s_server's `-state`
/// lines show it read eid's ClientHello. Each strong server of the ICS (E_06: TLS 1.2 and 1.3, RSA 3072,
/// P-256, brainpoolP256r1) completes the handshake: eid reads s_server's answer, its status page, and
/// refuses it as no TcToken (Workflow_TrustedChannel_Server_Format_Error), a step only a working TLS-1
/// reaches.
extension ThroughPCSCD {
    @Suite(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl"), "needs the openssl command line tool"
        ))
    struct ConformanceETLS1Tests {
        typealias Faults = AuthFaultsTests

        /// Runs `eid auth` with the tcTokenURL of an s_server started with `options`; returns s_server's output.
        static func run(_ name: String, _ options: [String], expected: Faults.Expected) throws -> String {
            let pki = try Faults.tlsPKI.get()
            let server = try ServeTLSRefusalTests.refusingServer(options, in: pki)
            defer { server.stop() }
            let problems = Faults.check(
                name, url: "https://127.0.0.1:\(server.port)/tctoken", commands: [Faults.accept, Faults.pin],
                expected: expected, reader: E2E.readers[0].name, server: nil)
            for problem in problems { Issue.record(Comment(rawValue: problem)) }
            // s_server may still be writing what it saw: wait for the end of the connection.
            let seen = server.output(when: SServer.sawConnectionEnd)
            #expect(
                seen.contains("read client hello") || seen.contains("before SSL initialization"),
                "s_server saw no ClientHello: \(seen)")
            return seen
        }

        /// Refused for the certificate's name, before any request.
        static let refused = Faults.Expected(
            minor: "/dp#trustedChannelEstablishmentFailed", reason: "Workflow_TrustedChannel_Establishment_Error",
            status: 7, messages: Faults.beforeTheCard, urlPath: nil, urlResult: nil, serverOK: nil,
            stderrContains: ["the server's TLS certificate is not issued for 127.0.0.1"])

        /// The handshake completed and the body came: it is no TcToken.
        static let noTcToken = Faults.Expected(
            minor: "/dp#trustedChannelEstablishmentFailed", reason: "Workflow_TrustedChannel_Server_Format_Error",
            status: 6, messages: Faults.beforeTheCard, urlPath: nil, urlResult: nil, serverOK: nil)

        @Test("EID_CLIENT_E_05_a: a tcTokenURL server whose certificate names another host is refused")
        func aCertificateForAnotherHostIsRefused() throws {
            let seen = try Self.run(
                "wronghost", ["-cert", "wronghost.pem", "-key", "wronghost.key"], expected: Self.refused)
            #expect(!seen.contains("GET /tctoken"), "the TcToken was asked for over the refused channel: \(seen)")
        }

        @Test("EID_CLIENT_E_05_b: a tcTokenURL server whose certificate's common name is another host is refused")
        func aCertificateWhoseCommonNameIsAnotherHostIsRefused() throws {
            let seen = try Self.run("wrongcn", ["-cert", "wrongcn.pem", "-key", "wrongcn.key"], expected: Self.refused)
            #expect(!seen.contains("GET /tctoken"), "the TcToken was asked for over the refused channel: \(seen)")
        }

        @Test(
            "EID_CLIENT_E_06: TLS-1 works with the ICS's strong servers (TLS 1.2 and 1.3, RSA 3072, P-256, brainpool)",
            arguments: [
                ("rsa3072", [String]()), ("rsa3072", ["-tls1_2"]), ("ec256", []), ("ec256", ["-tls1_2"]),
                ("brainpool256", ["-tls1_2", "-groups", "brainpoolP256r1"]),
            ])
        func theStrongServersOfTheICSWork(certificate: String, options: [String]) throws {
            let seen = try Self.run(
                "\(certificate) \(options)", ["-cert", "\(certificate).pem", "-key", "\(certificate).key"] + options,
                expected: Self.noTcToken)
            #expect(!seen.contains("SSL_accept:error"), "s_server saw the handshake fail: \(seen)")
        }
    }
}
