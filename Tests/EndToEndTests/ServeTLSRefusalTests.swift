import Foundation
import Testing

/// TR-03124-2 D_16_h to D_16_k (and so E_01, E_03, E_04, E_08 end to end): a browser activation of `eid serve` whose tcTokenURL is an `openssl s_server`
/// that TLS-1 must refuse (the refusals E_01, E_03, E_04 and E_08, as Tests/TLSTests/WebChannelTests.swift
/// stages them for the TLS layer): only TLS 1.1; only a suite without forward secrecy; an RSA key of 2048 bits;
/// an ephemeral DH group of 2048 bits. The browser gets what AusweisApp2 answers when no TcToken came (102,
/// then a 404 HTML page), and the page says in words why: the TLS layer's sentence, HTML-escaped. s_server's
/// `-state` lines show that eid's ClientHello reached it, so no case passes because nothing connected.
@Suite(
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl"), "needs the openssl command line tool"))
struct ServeTLSRefusalTests {
    /// `openssl s_server -www` with `options`, run in `dir`.
    static func refusingServer(_ options: [String], in dir: URL) throws -> SServer {
        try SServer(["-www"] + options, in: dir, logName: "s_server-tls1")
    }

    /// Activates `eid serve` (the in-process card, an SDK client to answer) with the tcTokenURL of an s_server
    /// started with `options` (certificates of Tests/Support/tls-test-pki.sh); checks the browser's answer
    /// and that its page says `says` (as the page writes it: HTML-escaped), and that s_server saw the
    /// ClientHello and shows one of `evidence`.
    static func refuse(_ options: [String], evidence: [String], says: String) throws {
        let pki = try ThroughPCSCD.AuthFaultsTests.tlsPKI.get()
        let server = try Self.refusingServer(options, in: pki)
        defer { server.stop() }
        let serve = try ServeProcess(["--simulator"], environment: ServeTests.noPCSCD)
        defer { serve.stop() }
        let client = try SDKClientScript(serve.kernel, mode: "auth")
        let browser = try HTTPExchange.curl(
            ServeTests.activation(serve, tcTokenURL: "https://127.0.0.1:\(server.port)/tctoken"))
        // s_server may still be writing what it saw: wait for the end of the connection and the evidence.
        let seen = server.output { SServer.sawConnectionEnd($0) && evidence.contains(where: $0.contains) }
        #expect(
            seen.contains("read client hello") || seen.contains("before SSL initialization"),
            "s_server saw no ClientHello: \(seen)")
        #expect(evidence.contains(where: seen.contains), "s_server shows none of \(evidence): \(seen)")
        #expect(!seen.contains("GET /tctoken"), "the TcToken was asked for over the refused channel: \(seen)")
        #expect(browser.statuses == [102, 404], "\(browser.statuses) \(browser.body)")
        #expect(browser.headers["content-type"]?.hasPrefix("text/html") == true)
        let text = browser.body.replacingOccurrences(of: "\n", with: " ")
        #expect(text.contains("the TcToken could not be fetched: "), "\(browser.body)")
        #expect(text.contains(says), "the page does not say \(says): \(browser.body)")
        // The sentence is escaped: an apostrophe is a character reference, no markup came of it.
        #expect(!text.contains("'"), "\(browser.body)")
        #expect(text.components(separatedBy: "<p>").count == 3, "\(browser.body)")
        #expect(client.finish().messages.last?.contains("resultmajor#error") == true)
    }

    @Test(
        "EID_CLIENT_D_16_h, EID_CLIENT_E_01: a tcTokenURL server of TLS 1.1 only: the browser's page names the protocol version"
    )
    func tls11Only() throws {
        try Self.refuse(
            ["-cert", "rsa3072.pem", "-key", "rsa3072.key", "-tls1_1", "-cipher", "ALL:@SECLEVEL=0"],
            evidence: ["wrong version number", "protocol version", "unsupported protocol", "no protocols available"],
            says: "alert protocol version); the server may not support the required TLS settings")
    }

    @Test(
        "EID_CLIENT_D_16_i, EID_CLIENT_E_03: a tcTokenURL server without forward secrecy: the browser's page says the handshake failed"
    )
    func suitesWithoutForwardSecrecy() throws {
        try Self.refuse(
            ["-cert", "rsa3072.pem", "-key", "rsa3072.key", "-tls1_2", "-cipher", "AES256-GCM-SHA384"],
            evidence: ["no shared cipher"], says: "the TLS handshake failed (")
    }

    @Test(
        "EID_CLIENT_D_16_j, EID_CLIENT_E_04: a tcTokenURL server with an RSA key of 2048 bits: the browser's page says so"
    )
    func rsaKeyOf2048Bits() throws {
        try Self.refuse(
            ["-cert", "rsa2048.pem", "-key", "rsa2048.key"], evidence: ["alert", "SSL_accept:error"],
            says: "the server&#39;s RSA key has 2048 bits, fewer than the 3000 required")
    }

    @Test(
        "EID_CLIENT_D_16_k, EID_CLIENT_E_08: a tcTokenURL server with a DH group of 2048 bits: the browser's page says so"
    )
    func ephemeralDHOf2048Bits() throws {
        try Self.refuse(
            [
                "-cert", "rsa3072.pem", "-key", "rsa3072.key", "-tls1_2", "-cipher", "DHE-RSA-AES256-GCM-SHA384",
                "-dhparam", "ffdhe2048.pem",
            ], evidence: ["alert", "SSL_accept:error"],
            says: "the server&#39;s ephemeral DH key has 2048 bits, fewer than the 3000 required")
    }
}
