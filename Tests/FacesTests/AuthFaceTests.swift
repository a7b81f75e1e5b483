import CardSimulator
import EAC
import EIDTestServer
import Faces
import SDK
import SmartCard
import TestPKI
import Testing
import Workflows

/// `eid auth` in process: the terminal and the JSON face against the software card and the test
/// eID server's real PAOS sessions (no HTTP, no TLS, no pcscd).
@Suite struct AuthFaceTests {
    static let accept = #"{"cmd":"ACCEPT"}"#
    static let pin = #"{"cmd":"SET_PIN","value":"123456"}"#
    static let trust = AuthFace.Trust(
        anchors: [TestCertificateAuthority.project.certificate], csca: SimulatorTestPKI.csca, date: .todayUTC())

    func run(
        _ harness: Harness, server: InProcessEIDServer, json: Bool, yes: Bool = false, deny: [String] = [],
        url: String = InProcessEIDServer.tcTokenURL, trust: AuthFace.Trust = AuthFaceTests.trust
    ) -> Int32 {
        AuthFace(
            context: harness.context, options: .init(json: json, timeout: 10, yes: yes, deny: deny), trust: trust,
            connect: server.connect
        ).run(url: url)
    }

    /// The prompts written, in order.
    func prompts(_ terminal: FakeTerminal) -> [String] {
        terminal.events.filter { $0.hasPrefix("write ") && $0 != "write \n" }.map { String($0.dropFirst(6)) }
    }

    @Test(
        "EID_CLIENT_D_04, EID_CLIENT_D_24: the terminal shows who asks for what (and the transaction), then asks, then the PIN"
    )
    func terminalShowsWhoAsksForWhatThenAsksThenThePIN() throws {
        let server = try InProcessEIDServer()
        let terminal = FakeTerminal(typing: ["y", "123456"])
        let harness = Harness(terminal: terminal)
        #expect(run(harness, server: server, json: false) == ExitStatus.success)
        let out = harness.sink.output
        #expect(out.first == "Online authentication with your ID card (Ctrl-C cancels).")
        #expect(out.contains { $0.hasPrefix("Service:   ") && $0.contains("https://127.0.0.1:18443") })
        #expect(out.contains { $0.hasPrefix("Issuer:    ") })
        #expect(out.contains { $0.hasPrefix("Valid:     ") })
        #expect(out.contains("The service asks to read:"))
        #expect(out.contains("  Given name(s) (required)"))
        #expect(out.contains("  Family name (optional)"))
        #expect(out.contains("  Address (optional)"))
        #expect(out.contains("Transaction: order 42"))
        #expect(out.contains { $0.hasPrefix("Done: your data was sent to ") })
        #expect(out.last == "Continue at: https://127.0.0.1:18443/refresh?ResultMajor=ok")
        // The request is shown before the card is touched: the description lines come before READER.
        let service = try #require(out.firstIndex { $0.hasPrefix("Service:") })
        let reader = try #require(out.firstIndex { $0.hasPrefix("Simulator: ") })
        #expect(service < reader)
        #expect(prompts(terminal) == ["Proceed? [y/N] ", "PIN (6 digits): "])
        // The yes/no answer is no secret (echo stays on); the PIN is typed with echo off.
        #expect(
            terminal.events == [
                "write Proceed? [y/N] ", "echo off", "write PIN (6 digits): ", "restore",
                "write \n",
            ])
        let result = try #require(server.result)
        #expect(result.ok)
        #expect(result["GivenNames"] == .string("ERIKA"))
        #expect(result["FamilyName"] == .string("MUSTERMANN"))
        #expect(!out.joined().contains("123456"))
    }

    @Test func anAnswerOtherThanYesCancelsBeforeTheCard() throws {
        let server = try InProcessEIDServer()
        let terminal = FakeTerminal(typing: ["n"])
        let harness = Harness(terminal: terminal)
        #expect(run(harness, server: server, json: false) == ExitStatus.cancelled)
        #expect(!harness.sink.output.contains { $0.hasPrefix("Simulator: ") }, "no card access")
        #expect(harness.sink.output.contains("Not done: the authentication failed; nothing more was sent."))
        #expect(harness.sink.output.last?.hasSuffix("ResultMajor=error&ResultMinor=cancellationByUser") == true)
        #expect(harness.sink.error == ["eid: cancelled; no data was sent to the service"])
        #expect(server.result?.ok != true)
    }

    @Test func yesSkipsTheQuestionAndDenyDropsAnOptionalRight() throws {
        let server = try InProcessEIDServer()
        let terminal = FakeTerminal(typing: ["123456"])
        let harness = Harness(terminal: terminal)
        #expect(run(harness, server: server, json: false, yes: true, deny: ["FamilyName"]) == ExitStatus.success)
        #expect(prompts(terminal) == ["PIN (6 digits): "])
        #expect(harness.sink.output.contains("Not sent (--deny): Family name."))
        let result = try #require(server.result)
        #expect(result.ok && result["GivenNames"] == .string("ERIKA"))
        #expect(result["FamilyName"] == nil, "the denied right was not in the effective CHAT")
        #expect(result["Address"] != nil, "the optional right not denied was kept")
    }

    @Test("EID_CLIENT_D_22: denying a required right sends nothing")
    func denyingARequiredRightSendsNothing() throws {
        let server = try InProcessEIDServer()
        let terminal = FakeTerminal(typing: [])
        let harness = Harness(terminal: terminal)
        #expect(run(harness, server: server, json: false, yes: true, deny: ["GivenNames"]) == ExitStatus.cancelled)
        #expect(harness.sink.output.contains { $0.hasPrefix("The service requires Given name(s),") })
        #expect(prompts(terminal).isEmpty)
    }

    @Test func jsonFaceSendsTheSDKMessagesInOrder() throws {
        let server = try InProcessEIDServer()
        let harness = Harness(input: ScriptedInput([Self.accept, Self.pin]))
        #expect(run(harness, server: server, json: true) == ExitStatus.success)
        #expect(
            harness.sink.messages == [
                "AUTH", "STATUS", "ACCESS_RIGHTS", "READER", "ENTER_PIN", "STATUS", "STATUS", "STATUS", "STATUS",
                "AUTH",
            ])
        #expect(harness.sink.output.first == #"{"msg":"AUTH"}"#)
        // STATUS as AusweisApp sends it at API level 3: 0 % before the TcToken, then 20, 40, 60
        // and 80 %, each while the workflow works (state null).
        #expect(
            harness.sink.output.filter { $0.hasPrefix(#"{"msg":"STATUS""#) } == [
                #"{"msg":"STATUS","workflow":"AUTH","progress":0,"state":null}"#,
                #"{"msg":"STATUS","workflow":"AUTH","progress":20,"state":null}"#,
                #"{"msg":"STATUS","workflow":"AUTH","progress":40,"state":null}"#,
                #"{"msg":"STATUS","workflow":"AUTH","progress":60,"state":null}"#,
                #"{"msg":"STATUS","workflow":"AUTH","progress":80,"state":null}"#,
            ])
        #expect(
            harness.sink.output.last
                == #"{"msg":"AUTH","result":{"major":"http://www.bsi.bund.de/ecard/api/1.1/resultmajor#ok"},"url":"https://127.0.0.1:18443/refresh"}"#
        )
        #expect(harness.sink.error.isEmpty)
        #expect(server.result?.ok == true)
    }

    /// A description whose hash is not in the AT: refused with parameterError and no PIN asked.
    @Test func jsonFaceDescriptionHashMismatchAsksNoPIN() throws {
        let server = try InProcessEIDServer(faults: [.descriptionHashMismatch])
        let harness = Harness(input: ScriptedInput([Self.accept, Self.pin]))
        #expect(run(harness, server: server, json: true) == ExitStatus.refused)
        #expect(!harness.sink.messages.contains("ENTER_PIN"))
        #expect(harness.sink.messages.last == "AUTH")
        #expect(harness.sink.output.last?.contains("al/common#parameterError") == true)
    }

    @Test func anUnusableURLEndsBeforeAnyNetwork() throws {
        let server = try InProcessEIDServer()
        let harness = Harness(input: ScriptedInput([]))
        #expect(run(harness, server: server, json: true, url: "http://service.example/tctoken") == ExitStatus.usage)
        #expect(
            harness.sink.messages == ["AUTH", "STATUS", "STATUS", "AUTH"],
            "no TcToken fetched: 0 %, then 80 %, as AusweisApp2 1.26.2 reports a refused URL")
        #expect(harness.sink.output.last?.contains("Workflow_Wrong_Parameter_Invocation") == true)
        #expect(server.exchanges == 0)
        let unreachable = Harness(input: ScriptedInput([]))
        #expect(run(unreachable, server: server, json: true, url: "https://elsewhere.example/t") == ExitStatus.network)
        #expect(unreachable.sink.error.first?.hasPrefix("eid: the TcToken could not be fetched: the host") == true)
        #expect(unreachable.sink.messages == ["AUTH", "STATUS", "STATUS", "AUTH"])
    }

    /// The readers and the terminal are opened once the TcToken came (`DeferredWiring`): a fetch
    /// that fails needs no terminal and says only why; without a terminal, a service that answered
    /// gets nothing (no StartPAOS) and the face says that there is no terminal.
    @Test func theTerminalIsNeededOnlyOnceTheTcTokenCame() throws {
        let server = try InProcessEIDServer()
        let unreachable = Harness(terminal: nil)
        #expect(run(unreachable, server: server, json: false, url: "https://elsewhere.example/t") == ExitStatus.network)
        #expect(unreachable.sink.output.isEmpty)
        #expect(unreachable.sink.error.count == 1)
        #expect(unreachable.sink.error.first?.hasPrefix("eid: the TcToken could not be fetched: the host") == true)
        let noTerminal = Harness(terminal: nil)
        #expect(run(noTerminal, server: server, json: false) == ExitStatus.usage)
        #expect(noTerminal.sink.output.isEmpty, "not even the opening line")
        #expect(noTerminal.sink.error == ["eid: \(FailureReason.noTerminal.sentence)"])
        #expect(server.exchanges == 0)
    }

    /// The JSON face ends every authentication with AUTH carrying the result, also when the
    /// readers cannot be opened once the TcToken came (pcscd stopped), or there is no terminal
    /// to ask on: as a failed fetch, with the reason's result; the sentence on standard error.
    @Test func jsonFaceEndsWithAuthWhenTheWiringFails() throws {
        let server = try InProcessEIDServer()
        let harness = Harness(input: ScriptedInput([]))
        var context = harness.context
        let noService = CardError.readerServiceUnavailable("SCARD_E_NO_SERVICE")
        context.readers = ReaderProviders(open: { throw noService }, lookup: { nil })
        let face = AuthFace(
            context: context, options: .init(json: true, timeout: 10), trust: Self.trust, connect: server.connect)
        #expect(face.run(url: InProcessEIDServer.tcTokenURL) == ExitStatus.serviceUnavailable)
        #expect(harness.sink.messages == ["AUTH", "STATUS", "STATUS", "AUTH"])
        let last = try #require(harness.sink.output.last)
        #expect(last.contains(#""reason":"Reader_Service_Unavailable""#) && last.contains("common#communicationError"))
        #expect(!last.contains(#""url""#), "the service got no StartPAOS: nowhere to continue")
        #expect(harness.sink.error == ["eid: \(FailureReason.readerServiceUnavailable(noService).sentence)"])
        let noTerminal = Harness(input: ScriptedInput([], isTerminal: true), terminal: nil)
        #expect(run(noTerminal, server: server, json: true) == ExitStatus.usage)
        #expect(noTerminal.sink.messages == ["AUTH", "STATUS", "STATUS", "AUTH"])
        #expect(noTerminal.sink.output.last?.contains(#""reason":"\#(FailureReason.noTerminal.name)""#) == true)
        #expect(noTerminal.sink.error == ["eid: \(FailureReason.noTerminal.sentence)"])
        #expect(server.exchanges == 0)
    }

    /// A CANCEL at the access rights: STATUS at 0 % before, 80 % (working: state null) after.
    @Test func jsonFaceStatusWhenCancelledAtTheAccessRights() throws {
        let server = try InProcessEIDServer()
        let harness = Harness(input: ScriptedInput([#"{"cmd":"CANCEL"}"#]))
        #expect(run(harness, server: server, json: true) == ExitStatus.cancelled)
        #expect(harness.sink.messages == ["AUTH", "STATUS", "ACCESS_RIGHTS", "STATUS", "AUTH"])
        #expect(
            harness.sink.output[3] == #"{"msg":"STATUS","workflow":"AUTH","progress":80,"state":null}"#)
    }

    /// The terminal face shows no STATUS.
    @Test func terminalFaceHasNoStatus() throws {
        let server = try InProcessEIDServer()
        let harness = Harness(terminal: FakeTerminal(typing: ["y", "123456"]))
        #expect(run(harness, server: server, json: false) == ExitStatus.success)
        #expect(!harness.sink.output.joined().contains("STATUS"))
        #expect(!harness.sink.output.contains { $0.contains("progress") })
    }

    /// What `eid auth` trusts unless told more: the German eID PKI's production and test CVCAs
    /// (self-signed anchors) with their link certificates; the project's test CVCA only when added.
    @Test func builtInTrustIsTheGermanEIDPKI() {
        let trust = AuthFace.Trust.builtIn(adding: [], date: .todayUTC())
        #expect(
            trust.anchors.map(\.body.holderReference) == ["DECVCAeID00102", "DETESTeID00001", "DECVCAeIDCT00001"])
        #expect(trust.links.count == 16)
        #expect(trust.links.contains { $0.body.holderReference == "DECVCAeID00107" })
        let project = TestCertificateAuthority.project.certificate
        #expect(!trust.anchors.contains(project) && !trust.links.contains(project))
        #expect(AuthFace.Trust.builtIn(adding: [project], date: .todayUTC()).anchors.last == project)
    }

    /// The project's test CVCA is not trusted by default: its server is refused in
    /// pre-verification, before the card and the PIN.
    @Test func theProjectTestPKIIsRefusedUnlessAdded() throws {
        let server = try InProcessEIDServer()
        let harness = Harness(input: ScriptedInput([Self.accept, Self.pin]))
        let builtIn = AuthFace.Trust.builtIn(adding: [], csca: SimulatorTestPKI.csca, date: .todayUTC())
        #expect(run(harness, server: server, json: true, trust: builtIn) == ExitStatus.refused)
        // No ACCESS_RIGHTS and no ENTER_PIN: the chain is refused before the user is asked.
        #expect(harness.sink.messages == ["AUTH", "STATUS", "STATUS", "AUTH"])
        #expect(harness.sink.output.last?.contains("resultmajor#error") == true)
        let added = Harness(input: ScriptedInput([Self.accept, Self.pin]))
        let withProject = AuthFace.Trust.builtIn(
            adding: [TestCertificateAuthority.project.certificate], csca: SimulatorTestPKI.csca, date: .todayUTC())
        #expect(run(added, server: try InProcessEIDServer(), json: true, trust: withProject) == ExitStatus.success)
    }
}
