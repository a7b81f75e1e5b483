import CardSimulator
import Online
import SDK
import TestPKI
import Testing

@testable import Workflows

/// StateGetTcToken in a whole run: the workflow calls the injected fetcher with the tcTokenURL
/// (also from an activation URL) and ends through its normal end when there is no TcToken.
@Suite struct AuthTcTokenTests {
    final class Fetches {
        var urls: [String] = []
    }

    func run(
        _ url: String, fetched: Result<AuthConnection, AuthConnection.Failure>, peer: ScriptedPeer = ScriptedPeer([])
    ) -> (AuthWorkflow.Result, [String], [AuthProgress]) {
        let fetches = Fetches()
        let card = SimulatedEIDCard()
        let workflow = AuthWorkflow(
            configuration: .init(
                url: url, trustAnchors: [TestCertificateAuthority.project.certificate], date: .todayUTC()),
            fetch: { tcTokenURL in
                fetches.urls.append(tcTokenURL)
                return fetched
            },
            provider: SimulatorReaderProvider(card: card), peer: peer, timeouts: .init(card: 5, input: 5))
        var progress: [AuthProgress] = []
        workflow.onProgress = { progress.append($0) }
        return (workflow.run(), fetches.urls, progress)
    }

    static let errorAddress = RefreshTarget(
        address: "https://service.example/error?x", result: .error(.communicationError))

    @Test func aFailedFetchEndsWithTheCommunicationErrorAddress() {
        let reason = FailureReason.authInvalidTcToken(.missingElement("RefreshAddress"))
        let peer = ScriptedPeer([])
        let (result, urls, progress) = run(
            FakeEIDServer.tcTokenURL,
            fetched: .failure(AuthConnection.Failure(reason, url: Self.errorAddress)), peer: peer)
        #expect(urls == [FakeEIDServer.tcTokenURL])
        #expect(result.outcome == AuthOutcome(failure: reason))
        #expect(result.url == "https://service.example/error?x&ResultMajor=error&ResultMinor=communicationError")
        #expect(peer.names == ["AUTH", "AUTH"], "no card, no question")
        guard case .auth(let final?, let url)? = peer.messages.last else {
            Issue.record("no final AUTH")
            return
        }
        #expect(final == AuthResult(AuthOutcome(failure: reason)) && url == "https://service.example/error?x")
        #expect(progress == [.start, AuthProgress(percent: 80, step: .sendingToProvider)])
    }

    @Test func anActivationURLGivesItsTcTokenURL() throws {
        let server = try FakeEIDServer()
        let activation = "http://127.0.0.1:24727/eID-Client?tcTokenURL=https%3A%2F%2Fservice.example%2Ft"
        let (result, urls, _) = run(
            activation, fetched: .success(AuthConnection(tcToken: server.tcToken, transport: server)),
            peer: ScriptedPeer([AuthWorkflowTests.cancel]))
        #expect(urls == ["https://service.example/t"])
        #expect(result.outcome.reason == .userCancelled(during: .authentication))
        #expect(server.received.first?.kind == .startPAOS)
    }

    @Test func aURLWithoutATcTokenURLFetchesNothing() {
        let peer = ScriptedPeer([])
        let (result, urls, progress) = run(
            "http://service.example/tctoken",
            fetched: .failure(AuthConnection.Failure(.authConnectionFailed(.connectionFailed))), peer: peer)
        #expect(urls.isEmpty)
        #expect(result.outcome.reason?.name == "Workflow_Wrong_Parameter_Invocation")
        #expect(result.url == nil)
        #expect(peer.names == ["AUTH", "AUTH"])
        #expect(
            progress == [.start, AuthProgress(percent: 80, step: .sendingToProvider)],
            "no fetch, yet 0 % first (AusweisApp2 1.26.2 reports a refused URL so)")
    }
}
