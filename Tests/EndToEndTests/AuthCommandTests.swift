import Foundation
import Testing

/// `eid auth` as the built binary, where it ends before any card: a URL it cannot use, an http
/// tcTokenURL, a server that is not there, bad options. Each ends with its exit status, a clear
/// sentence on stderr, and (with --json) AUTH first and AUTH with the result last.
@Suite(
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: E2E.binDir.appendingPathComponent("eid").path),
        "needs the built eid binary: run `make test`"))
struct AuthCommandTests {
    @Test func aURLThatIsNoURLIsAnArgumentError() throws {
        let run = try runTool("eid", ["auth", "--json", "not a url"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("eid: the URL cannot be used: not a URL"))
        #expect(run.stdoutLines.first == #"{"msg":"AUTH"}"#)
        #expect(run.stdoutLines.last?.contains("al/common#communicationError") == true)
        #expect(run.stdoutLines.last?.contains(#""reason":"Workflow_Wrong_Parameter_Invocation""#) == true)
    }

    @Test func anHTTPURLIsRefused() throws {
        let plain = try runTool("eid", ["auth", "http://service.example/tctoken"])
        #expect(plain.status == 64)
        #expect(plain.stderr.contains("neither an https tcTokenURL nor an activation URL"))
        // An activation URL naming an http tcTokenURL: refused, with the minor AusweisApp gives.
        let activation = "http://127.0.0.1:24727/eID-Client?tcTokenURL=http%3A%2F%2Fservice.example%2Ftctoken"
        let run = try runTool("eid", ["auth", "--json", activation])
        #expect(run.status == 6)
        #expect(run.stderr.contains("eid: refused: the tcTokenURL is not https"))
        #expect(run.stdoutLines.last?.contains("dp#trustedChannelEstablishmentFailed") == true)
    }

    @Test func anUnreachableServerIsANetworkError() throws {
        let port = try E2E.freePort()
        let run = try runTool("eid", ["auth", "--json", "https://127.0.0.1:\(port)/tctoken"])
        #expect(run.status == 7)
        #expect(
            run.stderr.contains(
                "eid: the TcToken could not be fetched: the connection to the server failed; is it running and reachable?"
            ))
        #expect(messageNames(run.stdoutLines) == ["AUTH", "STATUS", "STATUS", "AUTH"])
        #expect(run.stdoutLines.last?.contains(#""reason":"Workflow_TrustedChannel_Establishment_Error""#) == true)
        // The same on the terminal face: no JSON, the sentence only.
        let plain = try runTool("eid", ["auth", "--yes", "https://127.0.0.1:\(port)/tctoken"])
        #expect(plain.status == 7)
        #expect(plain.stdout.isEmpty)
    }

    @Test func testPKISaysSoOnStandardError() throws {
        let port = try E2E.freePort()
        let run = try runTool("eid", ["auth", "--test-pki", "https://127.0.0.1:\(port)/tctoken"])
        #expect(run.status == 7)
        #expect(
            run.stderr.hasPrefix(
                "eid: trusting the project's TEST CVCA DEEIDTESTCA00001 (its private key is public; never use it for real data)"
            ))
        let without = try runTool("eid", ["auth", "https://127.0.0.1:\(port)/tctoken"])
        #expect(!without.stderr.contains("TEST CVCA"))
    }

    @Test func badOptionsAreArgumentErrors() throws {
        let deny = try runTool("eid", ["auth", "--deny", "Everything", "https://service.example/t"])
        #expect(deny.status == 64)
        #expect(deny.stderr.contains("--deny Everything: not an access right name"))
        let cvca = try runTool(
            "eid", ["auth", "--trust-cvca", "/nonexistent/cvca.cvcert", "https://service.example/t"])
        #expect(cvca.status == 64)
        #expect(cvca.stderr.contains("--trust-cvca /nonexistent/cvca.cvcert: cannot read the file"))
        let csca = try runTool("eid", ["auth", "--csca", "/nonexistent/csca.cer", "https://service.example/t"])
        #expect(csca.status == 64)
        #expect(csca.stderr.contains("--csca /nonexistent/csca.cer: cannot read the file"))
        let readme = E2E.packageRoot.appendingPathComponent("README.md").path
        let notX509 = try runTool("eid", ["auth", "--csca", readme, "https://service.example/t"])
        #expect(notX509.status == 64)
        #expect(notX509.stderr.contains("--csca \(readme): not an X.509 certificate in DER"))
        let timeout = try runTool("eid", ["auth", "--timeout", "0", "https://service.example/t"])
        #expect(timeout.status == 64)
        let missing = try runTool("eid", ["auth"])
        #expect(missing.status == 64)
    }
}
