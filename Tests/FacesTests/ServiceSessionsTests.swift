import CardSimulator
import Glibc
import LocalService
import SDK
import SmartCard
import Testing
import Workflows

@testable import Faces

/// `eid serve`'s sessions in process (no sockets): an SDK client's messages in and out, browser
/// activations, one workflow at a time, against the software card and the test eID server's real
/// PAOS sessions.
@Suite struct ServiceSessionsTests {
    /// The lines sent to one SDK client, waited for by message name.
    final class SentLines: @unchecked Sendable {
        private let condition = Condition()
        private var lines: [String] = []
        private var taken = 0

        func record(_ line: String) {
            condition.lock()
            lines.append(line)
            condition.broadcast()
            condition.unlock()
        }

        /// The next line (after those taken) whose msg is `name`, within 20 s; the lines before it are skipped.
        func next(_ name: String) -> String? {
            let deadline = Deadline(secondsFromNow: 20)
            condition.lock()
            defer { condition.unlock() }
            while true {
                while taken < lines.count {
                    let line = lines[taken]
                    taken += 1
                    if line.hasPrefix(#"{"msg":"\#(name)""#) { return line }
                }
                if deadline.hasPassed { return nil }
                condition.wait(seconds: 0.2)
            }
        }

        var all: [String] {
            condition.lock()
            defer { condition.unlock() }
            return lines
        }
    }

    /// AuthFace.Connect is not Sendable; the in-process server is used by one workflow at a time.
    struct Network: @unchecked Sendable {
        let connect: AuthFace.Connect
    }

    func sessions(_ harness: Harness, server: InProcessEIDServer? = nil, answerer: ActivationAnswerer? = nil)
        throws -> ServiceSessions
    {
        let network = Network(connect: try server?.connect ?? InProcessEIDServer().connect)
        let options = ServiceSessions.Options(
            reader: SimulatedCardChannel.readerName, timeout: 10, trust: AuthFaceTests.trust,
            connect: { network.connect($0) })
        return ServiceSessions(context: harness.context, options: options) { answerer }
    }

    func say(_ client: any SDKClient, _ line: String) {
        var bytes = Array(line.utf8)
        bytes.withUnsafeMutableBufferPointer { client.receive($0) }
    }

    func connect(_ sessions: ServiceSessions) throws -> (any SDKClient, SentLines) {
        let sent = SentLines()
        let client = sessions.openSDKClient(send: { sent.record($0) }, close: {})
        return (try #require(client), sent)
    }

    @Test func betweenWorkflowsCommandsAreAnsweredAtOnce() throws {
        let sessions = try sessions(Harness())
        let (client, sent) = try connect(sessions)
        say(client, #"{"cmd":"GET_INFO"}"#)
        #expect(sent.next("INFO")?.contains(#""Implementation-Title":"eid""#) == true)
        say(client, #"{"cmd":"ACCEPT"}"#)
        #expect(sent.next("BAD_STATE") == #"{"msg":"BAD_STATE","error":"ACCEPT"}"#)
        say(client, #"{"cmd":"SET_PIN","value":"123456"}"#)
        #expect(sent.next("BAD_STATE") == #"{"msg":"BAD_STATE","error":"SET_PIN"}"#)
        say(client, "no json")
        #expect(sent.next("INVALID") != nil)
        say(client, #"{"cmd":"FLY"}"#)
        #expect(sent.next("UNKNOWN_COMMAND") != nil)
        say(client, #"{"cmd":"SET_API_LEVEL","level":1}"#)
        #expect(sent.next("API_LEVEL") == #"{"msg":"API_LEVEL","current":1}"#)
        say(client, #"{"cmd":"GET_API_LEVEL"}"#)
        #expect(sent.next("API_LEVEL") == #"{"msg":"API_LEVEL","available":[1,2,3],"current":1}"#)
        #expect(!sent.all.joined().contains("123456"))
    }

    /// The level-3 answers between workflows, as AusweisApp 2.5 gives them (and at level 1 and
    /// 2 as AusweisApp2 1.26.2): GET_STATUS, RUN_AUTH refused with AUTH `error`, no workflow.
    @Test func betweenWorkflowsAtEachLevel() throws {
        let sessions = try sessions(Harness())
        let (client, sent) = try connect(sessions)
        say(client, #"{"cmd":"GET_API_LEVEL"}"#)
        #expect(sent.next("API_LEVEL") == #"{"msg":"API_LEVEL","available":[1,2,3],"current":3}"#)
        say(client, #"{"cmd":"GET_STATUS"}"#)
        #expect(sent.next("STATUS") == #"{"msg":"STATUS","workflow":null,"progress":null,"state":null}"#)
        say(client, #"{"cmd":""}"#)
        #expect(sent.next("INVALID") == #"{"msg":"INVALID","error":"Command cannot be undefined"}"#)
        say(client, #"{"cmd":"INTERRUPT"}"#)
        #expect(sent.next("UNKNOWN_COMMAND") == #"{"msg":"UNKNOWN_COMMAND","error":"INTERRUPT"}"#)
        say(client, #"{"cmd":"CONTINUE"}"#)
        #expect(sent.next("BAD_STATE") == #"{"msg":"BAD_STATE","error":"CONTINUE"}"#)
        for (line, error) in [
            (#"{"cmd":"RUN_AUTH"}"#, "tcTokenURL cannot be undefined"),
            (#"{"cmd":"RUN_AUTH","tcTokenURL":5}"#, "Invalid tcTokenURL"),
            (#"{"cmd":"RUN_AUTH","tcTokenURL":"notaurl"}"#, "Validation of tcTokenURL failed"),
        ] {
            say(client, line)
            #expect(sent.next("AUTH") == #"{"msg":"AUTH","error":"\#(error)"}"#, "\(line)")
        }
        // Nothing started: the service is free.
        #expect(sessions.claim())
        sessions.release()
        say(client, #"{"cmd":"GET_INFO"}"#)
        #expect(sent.next("INFO")?.hasSuffix(#","AusweisApp":"UNKNOWN"}"#) == true)
        say(client, #"{"cmd":"SET_API_LEVEL","level":2}"#)
        #expect(sent.next("API_LEVEL") == #"{"msg":"API_LEVEL","current":2}"#)
        say(client, #"{"cmd":"GET_INFO"}"#)
        #expect(sent.next("INFO")?.contains("AusweisApp") == false)
        say(client, #"{"cmd":"CONTINUE"}"#)
        #expect(sent.next("UNKNOWN_COMMAND") == #"{"msg":"UNKNOWN_COMMAND","error":"CONTINUE"}"#)
        say(client, #"{"cmd":"GET_READER"}"#)
        #expect(sent.next("READER") == #"{"msg":"READER","error":"Name cannot be undefined"}"#)
        say(client, #"{"cmd":"SET_API_LEVEL","level":1}"#)
        #expect(sent.next("API_LEVEL") == #"{"msg":"API_LEVEL","current":1}"#)
        say(client, #"{"cmd":"GET_STATUS"}"#)
        #expect(sent.next("UNKNOWN_COMMAND") == #"{"msg":"UNKNOWN_COMMAND","error":"GET_STATUS"}"#)
    }

    /// An authentication at level 2 sends STATUS as AusweisApp2 1.26.2 does (0, 20, 40, 60, 80 and
    /// 100 before the successful end, state null); GET_STATUS at a question names it; with
    /// `status: false`, no automatic STATUS at all.
    @Test func statusDuringAnAuthentication() throws {
        let server = try InProcessEIDServer()
        let sessions = try sessions(Harness(), server: server)
        let (client, sent) = try connect(sessions)
        say(client, #"{"cmd":"SET_API_LEVEL","level":2}"#)
        #expect(sent.next("API_LEVEL") != nil)
        say(client, #"{"cmd":"RUN_AUTH","tcTokenURL":"\#(InProcessEIDServer.tcTokenURL)"}"#)
        #expect(sent.next("STATUS") == #"{"msg":"STATUS","workflow":"AUTH","progress":0,"state":null}"#)
        #expect(sent.next("ACCESS_RIGHTS") != nil)
        say(client, #"{"cmd":"GET_STATUS"}"#)
        #expect(
            sent.next("STATUS") == #"{"msg":"STATUS","workflow":"AUTH","progress":0,"state":"ACCESS_RIGHTS"}"#)
        say(client, #"{"cmd":"ACCEPT"}"#)
        #expect(sent.next("ENTER_PIN") != nil)
        say(client, #"{"cmd":"SET_PIN","value":"123456"}"#)
        for percent in [20, 40, 60, 80, 100] {
            #expect(
                sent.next("STATUS") == #"{"msg":"STATUS","workflow":"AUTH","progress":\#(percent),"state":null}"#)
        }
        #expect(sent.next("AUTH")?.contains("resultmajor#ok") == true)
        say(client, #"{"cmd":"GET_STATUS"}"#)
        #expect(sent.next("STATUS") == #"{"msg":"STATUS","workflow":null,"progress":null,"state":null}"#)
        #expect(!sent.all.joined().contains("123456"))
    }

    /// A client that has gone frees its place at once: one that connects right after is taken.
    @Test func aClosedClientsPlaceIsFreeAtOnce() throws {
        let sessions = try sessions(Harness())
        let (client, _) = try connect(sessions)
        #expect(!sessions.acceptsSDKClient)
        client.closed()
        #expect(sessions.acceptsSDKClient)
        client.closed()
        let (next, sent) = try connect(sessions)
        say(next, #"{"cmd":"GET_API_LEVEL"}"#)
        #expect(sent.next("API_LEVEL") != nil)
    }

    @Test func runAuthWithStatusFalseSendsNoStatus() throws {
        let server = try InProcessEIDServer()
        let sessions = try sessions(Harness(), server: server)
        let (client, sent) = try connect(sessions)
        say(client, #"{"cmd":"RUN_AUTH","status":false,"tcTokenURL":"\#(InProcessEIDServer.tcTokenURL)"}"#)
        #expect(sent.next("ACCESS_RIGHTS") != nil)
        say(client, #"{"cmd":"ACCEPT"}"#)
        #expect(sent.next("ENTER_PIN") != nil)
        say(client, #"{"cmd":"SET_PIN","value":"123456"}"#)
        #expect(sent.next("AUTH")?.contains("resultmajor#ok") == true)
        say(client, #"{"cmd":"GET_STATUS"}"#)
        #expect(sent.next("STATUS") == #"{"msg":"STATUS","workflow":null,"progress":null,"state":null}"#)
        #expect(!sent.all.joined().contains("123456"))
    }

    @Test func changePINThenAnAuthenticationInOneConnection() throws {
        let server = try InProcessEIDServer()
        let sessions = try sessions(Harness(), server: server)
        let (client, sent) = try connect(sessions)
        say(client, #"{"cmd":"SET_API_LEVEL","level":1}"#)
        #expect(sent.next("API_LEVEL") == #"{"msg":"API_LEVEL","current":1}"#)
        say(client, #"{"cmd":"RUN_CHANGE_PIN"}"#)
        #expect(sent.next("CHANGE_PIN") == #"{"msg":"CHANGE_PIN"}"#)
        #expect(sent.next("ENTER_PIN") != nil)
        // A second RUN_* while one runs: BAD_STATE, the workflow goes on.
        say(client, #"{"cmd":"RUN_AUTH","tcTokenURL":"https://127.0.0.1:18443/tctoken"}"#)
        #expect(sent.next("BAD_STATE") == #"{"msg":"BAD_STATE","error":"RUN_AUTH"}"#)
        // The level set between workflows holds in the workflow too.
        say(client, #"{"cmd":"GET_API_LEVEL"}"#)
        #expect(sent.next("API_LEVEL") == #"{"msg":"API_LEVEL","available":[1,2,3],"current":1}"#)
        say(client, #"{"cmd":"SET_PIN","value":"123456"}"#)
        #expect(sent.next("ENTER_NEW_PIN") != nil)
        say(client, #"{"cmd":"SET_NEW_PIN","value":"123456"}"#)
        #expect(sent.next("CHANGE_PIN") == #"{"msg":"CHANGE_PIN","success":true}"#)
        // At once after the final message: the next workflow.
        say(client, #"{"cmd":"RUN_AUTH","tcTokenURL":"https://127.0.0.1:18443/tctoken"}"#)
        #expect(sent.next("AUTH") == #"{"msg":"AUTH"}"#)
        #expect(sent.next("ACCESS_RIGHTS") != nil)
        say(client, #"{"cmd":"ACCEPT"}"#)
        #expect(sent.next("ENTER_PIN") != nil)
        say(client, #"{"cmd":"SET_PIN","value":"123456"}"#)
        let final = try #require(sent.next("AUTH"))
        #expect(final.contains("resultmajor#ok"))
        #expect(server.result?.ok == true)
        say(client, #"{"cmd":"GET_INFO"}"#)
        #expect(sent.next("INFO") != nil)
        #expect(!sent.all.joined().contains("123456"))
    }

    @Test func aBrowserActivationGoesToTheIdleSDKClient() throws {
        let sessions = try sessions(Harness())
        let (client, sent) = try connect(sessions)
        let answer = Locked<ActivationAnswer?>(nil)
        let start = sessions.activate(tcTokenURL: InProcessEIDServer.tcTokenURL) { got in answer.withLock { $0 = got } }
        #expect(start == .started)
        #expect(sent.next("AUTH") == #"{"msg":"AUTH"}"#)
        #expect(sent.next("ACCESS_RIGHTS") != nil)
        // Another activation while this one runs: 409.
        #expect(sessions.activate(tcTokenURL: InProcessEIDServer.tcTokenURL) { _ in } == .busy)
        say(client, #"{"cmd":"ACCEPT"}"#)
        #expect(sent.next("ENTER_PIN") != nil)
        say(client, #"{"cmd":"SET_PIN","value":"123456"}"#)
        #expect(sent.next("AUTH")?.contains("resultmajor#ok") == true)
        let deadline = Deadline(secondsFromNow: 10)
        while answer.withLock({ $0 }) == nil && !deadline.hasPassed { usleep(10_000) }
        #expect(answer.withLock { $0 } == .seeOther(location: InProcessEIDServer.origin + "/refresh?ResultMajor=ok"))
    }

    /// An answerer that ends at once, as the SDK client's CANCEL would.
    struct EndingAnswerer: ActivationAnswerer {
        func authenticate(tcTokenURL: String) -> AuthFace.Ending {
            AuthFace.Ending(status: 5, url: "https://service.example/r?ResultMajor=error", reason: nil)
        }
    }

    /// When the browser's answer is handed over (the 303 goes out), the workflow has ended: an
    /// activation sent right after it finds the service free, never busy (409), with an SDK
    /// client and with the answerer (the bench found such a 409).
    @Test func theWorkflowHasEndedWhenTheBrowserGetsItsAnswer() throws {
        for withClient in [true, false] {
            let sessions = try sessions(Harness(), answerer: withClient ? nil : EndingAnswerer())
            let client = withClient ? try connect(sessions) : nil
            let freeAtTheAnswer = Locked<Bool?>(nil)
            _ = sessions.activate(tcTokenURL: InProcessEIDServer.tcTokenURL) { _ in
                let free = sessions.claim()
                if free { sessions.release() }
                freeAtTheAnswer.withLock { $0 = free }
            }
            if let (client, sent) = client {
                #expect(sent.next("ACCESS_RIGHTS") != nil)
                say(client, #"{"cmd":"CANCEL"}"#)
            }
            let deadline = Deadline(secondsFromNow: 10)
            while freeAtTheAnswer.withLock({ $0 }) == nil && !deadline.hasPassed { usleep(10_000) }
            #expect(freeAtTheAnswer.withLock { $0 } == true, "with an SDK client: \(withClient)")
        }
    }

    @Test func aCancelledActivationSendsTheBrowserToTheRefreshAddressWithTheError() throws {
        let sessions = try sessions(Harness())
        let (client, sent) = try connect(sessions)
        let answer = Locked<ActivationAnswer?>(nil)
        _ = sessions.activate(tcTokenURL: InProcessEIDServer.tcTokenURL) { got in answer.withLock { $0 = got } }
        #expect(sent.next("ACCESS_RIGHTS") != nil)
        client.closed()
        let deadline = Deadline(secondsFromNow: 10)
        while answer.withLock({ $0 }) == nil && !deadline.hasPassed { usleep(10_000) }
        guard case .seeOther(let location)? = answer.withLock({ $0 }) else {
            Issue.record("no 303: \(String(describing: answer.withLock { $0 }))")
            return
        }
        #expect(location.hasPrefix(InProcessEIDServer.origin + "/refresh?ResultMajor=error"))
        #expect(location.contains("ResultMinor=cancellationByUser"))
        #expect(sessions.acceptsSDKClient)
    }

    @Test func withoutSDKClientOrAnswererAnActivationIsRefused() throws {
        let sessions = try sessions(Harness())
        guard
            case .refused(.failure(.noAnswerer)) = sessions.activate(
                tcTokenURL: InProcessEIDServer.tcTokenURL, finish: { _ in })
        else {
            Issue.record("not refused")
            return
        }
        // The slot is free again.
        _ = try connect(sessions)
    }

    @Test func aTcTokenURLThatIsNotHTTPSIsRefusedBeforeAnything() throws {
        let sessions = try sessions(Harness())
        let start = sessions.activate(tcTokenURL: "http://127.0.0.1:18443/tctoken") { _ in }
        #expect(start == .refused(.failure(.badRequest("The tcTokenURL is unusable: the tcTokenURL is not https."))))
    }

    @Test func oneSDKClientAtATime() throws {
        let sessions = try sessions(Harness())
        let (first, _) = try connect(sessions)
        #expect(!sessions.acceptsSDKClient)
        #expect(sessions.openSDKClient(send: { _ in }, close: {}) == nil)
        first.closed()
        let deadline = Deadline(secondsFromNow: 30)
        while !sessions.acceptsSDKClient && !deadline.hasPassed { usleep(10_000) }
        #expect(sessions.openSDKClient(send: { _ in }, close: {}) != nil)
    }

    @Test func statusIsTheVersionInfo() throws {
        let sessions = try sessions(Harness())
        let text = sessions.status(json: false)
        #expect(text.hasPrefix("Name: eid\nImplementation-Title: eid\n"))
        #expect(text.contains("Specification-Title: TR-03124\n"))
        let json = sessions.status(json: true)
        #expect(json.hasPrefix(#"{"Name":"eid","Implementation-Title":"eid""#))
    }

    @Test func theFinalMessagesAreRecognisedAsTheEncoderWritesThem() {
        let ok = AuthResult(AuthOutcome.ok)
        #expect(SDKConnection.isFinal(SDKMessage.auth(result: ok, url: "https://a.example/").jsonLine))
        #expect(SDKConnection.isFinal(SDKMessage.changePIN(success: false).jsonLine))
        #expect(!SDKConnection.isFinal(SDKMessage.auth(result: nil, url: nil).jsonLine))
        #expect(!SDKConnection.isFinal(SDKMessage.changePIN(success: nil).jsonLine))
        #expect(!SDKConnection.isFinal(SDKMessage.status(workflow: "AUTH", progress: 10, state: nil).jsonLine))
    }

    /// The browser's answer by how the authentication ended, as AusweisApp's web service answers.
    @Test func theBrowsersAnswerByHowTheAuthenticationEnded() {
        func answer(_ reason: FailureReason?, url: String? = nil) -> ActivationAnswer {
            ActivationAnswer(ending: AuthFace.Ending(status: 0, url: url, reason: reason))
        }
        #expect(
            answer(nil, url: "https://a.example/r?ResultMajor=ok")
                == .seeOther(location: "https://a.example/r?ResultMajor=ok"))
        #expect(
            answer(.userCancelled(during: .authentication), url: "https://a.example/r?x")
                == .seeOther(location: "https://a.example/r?x"))
        let notFound = "The authentication failed: the TcToken could not be fetched: "
        #expect(
            answer(.authTcTokenUnavailable(.httpStatus(404)))
                == .failure(.tcTokenNotFound(notFound + "the server answered with HTTP status 404.")))
        #expect(
            answer(.authTcTokenUnavailable(.connectionFailed))
                == .failure(
                    .tcTokenNotFound(notFound + "the connection to the server failed; is it running and reachable?")))
        // The TLS layer's sentence of why it refused the server goes to the browser (TR-03124-2 D_16_h–k).
        #expect(
            answer(.authTcTokenUnavailable(.tlsRefused(reason: "the server's RSA key has 2048 bits")))
                == .failure(.tcTokenNotFound(notFound + "the server's RSA key has 2048 bits.")))
        guard
            case .failure(.badRequest(let sentence)) = answer(
                .authTcTokenUnavailable(.notHTTPS(url: "http://a.example/")))
        else {
            Issue.record("a redirect to http is not 400")
            return
        }
        #expect(sentence.hasPrefix("The authentication failed: "))
        // The TcToken was read, the data too, but no refresh URL and no CommunicationErrorAddress
        // came of it (TR-03124-2 EID_CLIENT_A4_09): AusweisApp2 answers 400.
        guard
            case .failure(.badRequest(let why)) = answer(.authRefreshAddressFailed(.unexpectedStatus(404))),
            why.contains("refresh address")
        else {
            Issue.record("no address after the TcToken is not 400 saying why")
            return
        }
        guard case .failure(.internalError) = answer(.noTerminal) else {
            Issue.record("a failure without address that is not about the TcToken is not 500")
            return
        }
    }
}
