import Faces
import SDK
import Testing
import Workflows

@Suite struct CommandQueueTests {
    @Test func invalidAndUnknownAreAnsweredAtOnce() {
        var replies: [SDKMessage] = []
        let queue = CommandQueue(reply: { replies.append($0) })
        queue.feed(line: Array("{broken".utf8))
        queue.feed(line: Array(#"{"cmd":"FOO"}"#.utf8))
        queue.feed(line: Array("   ".utf8))
        #expect(replies.map(\.name) == ["INVALID", "UNKNOWN_COMMAND"])
        #expect(queue.next(timeout: 0.01).isTimeout)
    }

    @Test func cancelJumpsTheQueue() {
        var cancelled = 0
        let queue = CommandQueue(reply: { _ in }, onCancel: { cancelled += 1 })
        queue.feed(line: Array(#"{"cmd":"SET_PIN","value":"123456"}"#.utf8))
        queue.feed(line: Array(#"{"cmd":"CANCEL"}"#.utf8))
        queue.feed(line: Array(#"{"cmd":"CANCEL"}"#.utf8))
        #expect(queue.isCancelled)
        #expect(cancelled == 1)
        guard case .command(.cancel) = queue.next(timeout: 0) else {
            Issue.record("CANCEL should come first")
            return
        }
    }
}

extension PeerInput {
    var isTimeout: Bool { if case .timedOut = self { return true } else { return false } }
}
