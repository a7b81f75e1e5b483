import Dispatch
import Faces
import SDK
import SmartCard
import Testing
import Workflows

#if canImport(Glibc)
import Glibc
#endif

/// Collects what the queue answers at once, from whichever thread.
final class Replies: @unchecked Sendable {
    // Unchecked: `all` is guarded by `lock`.
    private let lock = Lock()
    private var all: [SDKMessage] = []
    func append(_ message: SDKMessage) { lock.withLock { all.append(message) } }
    var names: [String] { lock.withLock { all.map(\.name) } }
    var messages: [SDKMessage] { lock.withLock { all } }
}

@Suite struct CommandQueueTests {
    static let reader = ReaderInfo(name: "R", keypad: false, card: .eID(CardInfo(retryCounter: 3)))
    static let pin = #"{"cmd":"SET_PIN","value":"123456"}"#

    /// Feeds `lines` on a thread of their own, as the input reader does; the group ends when
    /// every line was answered or taken.
    func feed(_ queue: CommandQueue, _ lines: [String]) -> DispatchGroup {
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            for line in lines { queue.feed(line: Array(line.utf8)) }
        }
        return group
    }

    @Test func invalidAndUnknownAreAnsweredAtOnce() {
        let replies = Replies()
        let queue = CommandQueue(reply: replies.append)
        queue.feed(line: Array("{broken".utf8))
        queue.feed(line: Array(#"{"cmd":"FOO"}"#.utf8))
        queue.feed(line: Array("   ".utf8))
        #expect(replies.names == ["INVALID", "UNKNOWN_COMMAND"])
        #expect(queue.next(timeout: 0.01).isTimeout)
    }

    @Test func cancelActsAtOnce() {
        var cancelled = 0
        let queue = CommandQueue(reply: { _ in }, onCancel: { cancelled += 1 })
        queue.feed(line: Array(#"{"cmd":"CANCEL"}"#.utf8))
        queue.feed(line: Array(#"{"cmd":"CANCEL"}"#.utf8))
        #expect(queue.isCancelled)
        #expect(cancelled == 1)
        guard case .command(.cancel) = queue.next(timeout: 0) else {
            Issue.record("CANCEL should come first")
            return
        }
    }

    @Test func aCommandForAnotherQuestionGetsBadStateAtOnce() {
        let replies = Replies()
        let queue = CommandQueue(reply: replies.append)
        queue.note(.accessRights(AccessRightsInfo(effective: [], optional: [], required: [])))
        // Read while ACCESS_RIGHTS waits: answered before the workflow takes anything.
        queue.feed(line: Array(Self.pin.utf8))
        #expect(replies.messages == [.badState(command: "SET_PIN")])
        queue.note(.enterPIN(reader: Self.reader))
        queue.feed(line: Array(#"{"cmd":"ACCEPT"}"#.utf8))
        queue.feed(line: Array(#"{"cmd":"SET_NEW_PIN","value":"654321"}"#.utf8))
        #expect(replies.names == ["BAD_STATE", "BAD_STATE", "BAD_STATE"])
        #expect(queue.next(timeout: 0.01).isTimeout, "nothing went to the workflow")
    }

    @Test func runAndUnsupportedCommandsGetBadStateAtOnceInAnyState() {
        let replies = Replies()
        let queue = CommandQueue(reply: replies.append)
        for cmd in ["RUN_AUTH", "RUN_CHANGE_PIN", "SET_CARD", "GET_STATUS"] {
            queue.feed(line: Array(#"{"cmd":"\#(cmd)"}"#.utf8))
        }
        #expect(
            replies.messages
                == ["RUN_AUTH", "RUN_CHANGE_PIN", "SET_CARD", "GET_STATUS"].map {
                    .badState(command: $0)
                })
    }

    @Test func apiLevelsAreAnsweredInAnyStateAndKeptPerSession() {
        let replies = Replies()
        let answers = InstantAnswers(version: "1", board: ReaderBoard(lookup: { nil }))
        let queue = CommandQueue(reply: replies.append, answer: answers.answer)
        let other = InstantAnswers(version: "1", board: ReaderBoard(lookup: { nil }))
        queue.note(.enterPIN(reader: Self.reader))
        for line in [
            #"{"cmd":"GET_API_LEVEL"}"#, #"{"cmd":"SET_API_LEVEL","level":1}"#, #"{"cmd":"SET_API_LEVEL","level":4}"#,
            #"{"cmd":"SET_API_LEVEL","level":"2"}"#, #"{"cmd":"SET_API_LEVEL"}"#,
            #"{"cmd":"SET_API_LEVEL","level":2.5}"#,
            #"{"cmd":"GET_API_LEVEL"}"#,
        ] { queue.feed(line: Array(line.utf8)) }
        #expect(
            replies.messages.map(\.jsonLine) == [
                #"{"msg":"API_LEVEL","available":[1,2,3],"current":3}"#,
                #"{"msg":"API_LEVEL","current":1}"#,
                #"{"msg":"API_LEVEL","error":"Unknown level","current":1}"#,
                #"{"msg":"API_LEVEL","error":"Invalid level","current":1}"#,
                #"{"msg":"API_LEVEL","error":"Level cannot be undefined","current":1}"#,
                #"{"msg":"API_LEVEL","error":"Unknown level","current":1}"#,
                #"{"msg":"API_LEVEL","available":[1,2,3],"current":1}"#,
            ])
        #expect(other.answer(.getAPILevel) == .apiLevel(error: nil, available: [1, 2, 3], current: 3))
        #expect(queue.next(timeout: 0.01).isTimeout, "nothing went to the workflow")
    }

    /// GET_STATUS, GET_READER's errors, and the commands a desktop or the level does not have.
    @Test func statusAndCommandsByLevel() {
        let level = Locked(3)
        let status = WorkflowStatus()
        let answers = InstantAnswers(version: "1", board: ReaderBoard(lookup: { nil }), level: level, status: status)
        #expect(answers.answer(.getStatus) == .status(workflow: nil, progress: nil, state: nil))
        status.start("AUTH")
        #expect(answers.answer(.getStatus) == .status(workflow: "AUTH", progress: 0, state: nil))
        status.end()
        #expect(answers.answer(.getReader(name: .undefined)) == .readerRefused(error: "Name cannot be undefined"))
        #expect(answers.answer(.getReader(name: .invalid)) == .readerRefused(error: "Invalid name"))
        #expect(
            answers.answer(.getReader(name: .value("nope")))
                == .reader(ReaderInfo(name: "nope", attached: false, card: .none)))
        #expect(answers.answer(.interrupt) == .unknownCommand("INTERRUPT"), "a desktop has no dialog to interrupt")
        #expect(answers.answer(.continueWorkflow) == nil, "level 3: BAD_STATE outside a PAUSE")
        #expect(answers.answer(.setCard(name: .value("x"))) == nil)
        level.withLock { $0 = 2 }
        #expect(answers.answer(.getStatus) == .status(workflow: nil, progress: nil, state: nil))
        #expect(answers.answer(.continueWorkflow) == .unknownCommand("CONTINUE"), "AusweisApp2 1.26.2 has none")
        #expect(answers.answer(.setCard(name: .value("x"))) == nil)
        level.withLock { $0 = 1 }
        #expect(answers.answer(.getStatus) == .unknownCommand("GET_STATUS"))
        #expect(answers.answer(.setCard(name: .value("x"))) == .unknownCommand("SET_CARD"))
    }

    /// Below API level 3 a card that is not an eID card sends no READER (AusweisApp2 1.26.2); at
    /// level 3 it is READER with `card: {}`. An eID card is news at every level.
    @Test func anUnknownCardIsNewsAtLevel3Only() {
        let sink = RecordingSink()
        let console = Console(sink: sink, apiLevel: Locked(2))
        let peer = FacePeer(output: .json, input: .commands(CommandQueue(reply: { _ in })), console: console)
        peer.send(.reader(ReaderInfo(name: "R", card: .unknown)))
        #expect(sink.output.isEmpty)
        peer.send(.reader(Self.reader))
        #expect(sink.output.count == 1)
        console.apiLevel.withLock { $0 = 3 }
        peer.send(.reader(ReaderInfo(name: "R", card: .unknown)))
        #expect(
            sink.output.last
                == #"{"msg":"READER","name":"R","insertable":false,"attached":true,"keypad":false,"card":{}}"#)
    }

    @Test func anAnswerSentAheadIsHeldUntilItsQuestionAndNothingIsReadMeanwhile() {
        let replies = Replies()
        let queue = CommandQueue(reply: replies.append)
        // Sent while the workflow works (before ENTER_PIN), then a question for any state.
        let fed = feed(queue, [Self.pin, #"{"cmd":"GET_API_LEVEL"}"#])
        #expect(fed.wait(timeout: .now() + 0.3) == .timedOut, "SET_PIN is held, GET_API_LEVEL not read yet")
        #expect(replies.names.isEmpty)
        queue.note(.enterPIN(reader: Self.reader))
        guard case .command(.setSecret(.pin, let value?)) = queue.next(timeout: 30) else {
            Issue.record("the workflow should get SET_PIN at ENTER_PIN")
            return
        }
        value.wipe()
        #expect(fed.wait(timeout: .now() + 30) == .success)
        #expect(replies.names == ["BAD_STATE"], "GET_API_LEVEL has no answer without InstantAnswers")
    }

    @Test func anAnswerHeldForAnotherQuestionGetsBadStateWhenThatQuestionComes() {
        let replies = Replies()
        let queue = CommandQueue(reply: replies.append)
        let fed = feed(queue, [#"{"cmd":"SET_CAN","value":"500540"}"#, Self.pin])
        queue.note(.insertCard)
        #expect(fed.wait(timeout: .now() + 0.3) == .timedOut, "INSERT_CARD asks nothing: still held")
        queue.note(.enterPIN(reader: Self.reader))
        guard case .command(.setSecret(.pin, let value?)) = queue.next(timeout: 30) else {
            Issue.record("SET_CAN should get BAD_STATE and SET_PIN go to the workflow")
            return
        }
        value.wipe()
        #expect(fed.wait(timeout: .now() + 30) == .success)
        #expect(replies.messages == [.badState(command: "SET_CAN")])
    }

    @Test func aHeldCommandIsDroppedWhenTheWorkflowEnds() {
        let replies = Replies()
        let queue = CommandQueue(reply: replies.append)
        let fed = feed(queue, [Self.pin])
        #expect(fed.wait(timeout: .now() + 0.2) == .timedOut)
        queue.close()
        #expect(fed.wait(timeout: .now() + 30) == .success)
        #expect(replies.names.isEmpty)
    }
}

extension PeerInput {
    var isTimeout: Bool { if case .timedOut = self { return true } else { return false } }
}
