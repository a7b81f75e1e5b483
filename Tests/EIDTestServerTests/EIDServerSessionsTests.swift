import EIDTestServer
import Online
import Testing

/// Many sessions side by side: each found by its identifier or by the message, each isolated.
@Suite struct EIDServerSessionsTests {
    static func configuration(_ id: String, faults: ServerFaults = ServerFaults()) -> SessionConfiguration {
        SessionConfiguration(sessionIdentifier: id, pki: Fixture.pki, faults: faults)
    }

    @Test func aStartPAOSForNoSessionGetsAnError() throws {
        let sessions = EIDServerSessions()
        try sessions.create(Self.configuration("known"))
        let start = PAOSEnvelope(.startPAOS(StartPAOS(sessionIdentifier: "unknown")))
        let reply = try #require(try PAOSEnvelope.parse(try #require(sessions.respond(toBody: start.encoded()).body)))
        guard case .startPAOSResponse(let end) = reply.message else {
            Issue.record("an unknown session is answered with StartPAOSResponse")
            return
        }
        #expect(end.result.ecardAPIResult == .error(.parameterError))
        #expect(reply.relatesTo == start.messageID)
        #expect(sessions.result(of: "known") == nil && sessions.lastResult == nil)
        #expect(throws: EIDServerSessionsError.duplicateSession) { try sessions.create(Self.configuration("known")) }
    }

    @Test func twoSessionsRunInterleavedWithoutTouchingEachOther() throws {
        let sessions = EIDServerSessions()
        try sessions.create(Self.configuration("a"))
        try sessions.create(Self.configuration("b", faults: ServerFaults([.wrongTASignature])))
        // Session b's messages are routed by StartPAOS and then by RelatesTo; a's by identifier.
        let startB = PAOSEnvelope(.startPAOS(StartPAOS(sessionIdentifier: "b")))
        let eac1B = try #require(sessions.respond(toBody: startB.encoded()).envelope)
        let startA = PAOSEnvelope(.startPAOS(StartPAOS(sessionIdentifier: "a")))
        let eac1A = try #require(sessions.respond(toBody: startA.encoded(), sessionIdentifier: "a").envelope)
        #expect(eac1A.messageID != eac1B.messageID)
        let cancelB = PAOSEnvelope(
            .didAuthenticateResponse(DIDAuthenticateResponse(result: DSSResult(.error(.cancellationByUser)), nil)),
            relatesTo: eac1B.messageID)
        _ = sessions.respond(toBody: cancelB.encoded())
        #expect(sessions.result(of: "b")?.error == .clientReported(.error(.cancellationByUser)))
        #expect(sessions.result(of: "a") == nil)
        #expect(sessions.lastResult?.error == .clientReported(.error(.cancellationByUser)))
    }

    @Test func stalledSessionsAreSwept() throws {
        let clock = ManualClock()
        let sessions = EIDServerSessions(clock: clock)
        try sessions.create(Self.configuration("slow"))
        try sessions.create(Self.configuration("idle"))
        _ = sessions.respond(toBody: PAOSEnvelope(.startPAOS(StartPAOS(sessionIdentifier: "slow"))).encoded())
        clock.advance(200)
        #expect(sessions.expireStalled() == 2)
        #expect(sessions.result(of: "slow")?.error == .timedOut && sessions.lastResult?.error == .timedOut)
        #expect(sessions.expireStalled() == 0)
    }

    @Test func aFullTableRefusesNewSessionsUntilOneFinishesOrTimesOut() throws {
        let clock = ManualClock()
        let sessions = EIDServerSessions(clock: clock, capacity: 2)
        try sessions.create(Self.configuration("started"))
        try sessions.create(Self.configuration("unused"))
        _ = sessions.respond(toBody: PAOSEnvelope(.startPAOS(StartPAOS(sessionIdentifier: "started"))).encoded())
        // Full: no session is pushed out yet; the unused one may give way in 5 s.
        #expect(throws: EIDServerSessionsError.full(retryAfter: 5)) { try sessions.create(Self.configuration("new")) }
        #expect(sessions.isRunning("started") && sessions.isRunning("unused"))
        clock.advance(6)
        try sessions.create(Self.configuration("new"))
        #expect(sessions.result(of: "unused")?.error == .timedOut)
        #expect(sessions.isRunning("started") && sessions.isRunning("new"))
        // Both started: a started session is never pushed out; the first times out in 114 s.
        _ = sessions.respond(toBody: PAOSEnvelope(.startPAOS(StartPAOS(sessionIdentifier: "new"))).encoded())
        #expect(throws: EIDServerSessionsError.full(retryAfter: 114)) { try sessions.create(Self.configuration("x")) }
        clock.advance(115)
        try sessions.create(Self.configuration("x"))
        #expect(sessions.result(of: "started")?.error == .timedOut && sessions.isRunning("new"))
    }

    @Test func aFloodOfUnusedSessionsPushesOutOnlyItsOwnOnceTheyAreLeft() throws {
        let clock = ManualClock()
        let sessions = EIDServerSessions(clock: clock, capacity: 3)
        try sessions.create(Self.configuration("login"))
        _ = sessions.respond(toBody: Self.startPAOS("login"))
        for i in 0..<2 { try sessions.create(Self.configuration("flood\(i)")) }
        clock.advance(5)
        // The flood goes on; each new TcToken pushes out the oldest left one, never the login.
        for i in 2..<10 {
            try sessions.create(Self.configuration("flood\(i)"))
            clock.advance(5)
        }
        #expect(sessions.isRunning("login") && sessions.runningCount == 3)
        try sessions.create(Self.configuration("another login"))
        #expect(sessions.isRunning("another login") && sessions.isRunning("login"))
    }

    @Test func finishedSessionsKeepOnlyTheirResultsAndOnlyTheNewest() throws {
        let sessions = EIDServerSessions(capacity: 1, resultCapacity: 2)
        for id in ["a", "b", "c"] {
            try sessions.create(Self.configuration(id))
            _ = sessions.respond(
                toBody: PAOSEnvelope(.transmitResponse(TransmitResponse(outputAPDUs: [[0x90, 0x00]]))).encoded(),
                sessionIdentifier: id)
            #expect(!sessions.isRunning(id) && sessions.runningCount == 0)
        }
        #expect(sessions.result(of: "a") == nil)
        #expect(sessions.result(of: "b")?.error == .unexpectedMessage(.transmitResponse))
        #expect(sessions.lastResult == sessions.result(of: "c"))
        #expect(throws: EIDServerSessionsError.duplicateSession) { try sessions.create(Self.configuration("c")) }
        // A message for a finished session is told that it has ended.
        let late = try #require(sessions.respond(toBody: Self.startPAOS("c")).envelope)
        guard case .startPAOSResponse(let end) = late.message else {
            Issue.record("a finished session answers with StartPAOSResponse")
            return
        }
        #expect(end.result.message == "the session has ended")
    }

    static func startPAOS(_ id: String) -> [UInt8] {
        PAOSEnvelope(.startPAOS(StartPAOS(sessionIdentifier: id))).encoded()
    }
}
