import Foundation
import TLS
import Testing

/// Web-PKI chain errors, judged as AusweisApp judges them (`TlsChecker::getFatalErrors` over Qt's mapping of
/// OpenSSL's codes): an issuer that is no CA is fatal on TLS-1 and TLS-2; a path length violation and a leaf
/// not meant for TLS servers (EKU, key usage) are ignored there (PathLengthExceeded, InvalidPurpose), as the
/// chain is not trusted anyway, and only clear `chainTrusted`. Chains from Tests/Support/tls-test-pki.sh,
/// served with their intermediates by openssl s_server.
@Suite struct ChainErrorTests {
    let pki: TestPKI

    init() throws { pki = try TestPKI.get() }

    func fetch(_ name: String, trusting anchors: String? = nil) throws -> Result<RedirectChain, HTTPError> {
        let server = try Peer.sServer(
            ["-cert", "\(name).pem", "-key", "\(name).key", "-cert_chain", "\(name)-chain.pem", "-www"], pki: pki)
        defer { server.stop() }
        let session = HTTPSession(configuration: HTTPConfiguration(trustAnchorsFile: anchors.map { pki.path($0) }))
        do throws(HTTPError) {
            return .success(try session.fetch("https://127.0.0.1:\(server.port)/"))
        } catch {
            return .failure(error)
        }
    }

    @Test func anIssuerThatIsNoCAIsRefused() throws {
        #expect(try fetch("invalidca").failure == .tls(.invalidCA))
        // Even with the chain's root as a trust anchor.
        #expect(try fetch("invalidca", trusting: "ca.pem").failure == .tls(.invalidCA))
    }

    @Test func anIssuerThatIsNoCAIsRefusedOnTheRSAPSKChannel() throws {
        let identity = "chain-session-1"
        let key = "00112233445566778899AABBCCDDEEFF00112233445566778899AABBCCDDEEFF"
        let server = try Peer.sServer(
            [
                "-cert", "invalidca.pem", "-key", "invalidca.key", "-cert_chain", "invalidca-chain.pem",
                "-tls1_2", "-cipher", "RSA-PSK-AES256-CBC-SHA:ECDHE-PSK-AES128-CBC-SHA256", "-psk", key,
                "-psk_identity", identity, "-www",
            ], pki: pki)
        defer { server.stop() }
        let psk = try PreSharedKey(identity: identity, hexKey: key)
        #expect(throws: HTTPError.tls(.invalidCA)) {
            try HTTPSession().send(HTTPRequest(url: "https://127.0.0.1:\(server.port)/"), over: .preSharedKey(psk))
        }
    }

    @Test(arguments: [("pathlen", "ca-pathlen0.pem"), ("clientauth", "ca.pem"), ("keyusage", "ca.pem")])
    func whatAusweisAppIgnoresOnlyClearsChainTrusted(name: String, root: String) throws {
        let untrusted = try fetch(name).get().response
        let served = try pki.der(name)
        #expect(untrusted.status == 200 && untrusted.tls.serverCertificate == served)
        #expect(untrusted.tls.chainTrusted == false)
        // With its root as a trust anchor the chain is still not trusted: the error stands.
        #expect(try fetch(name, trusting: root).get().response.tls.chainTrusted == false)
    }
}
